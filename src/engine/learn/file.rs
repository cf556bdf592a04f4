//! The learn file: positions learned in earlier games, read and written safely.
//!
//! The file is text, one position a line, so that a person can read it:
//!
//! ```text
//! ferrum-learn 1 1
//! 02e219eda640658f 8 -429 c8b7 1 1rbk2r1/p1pp1p2/4pn2/1B5p/3P4/PPN1P3/2P2PPK/R1B2R2 b - - 0 2 022158ed
//! ```
//!
//! The first line is the magic `ferrum-learn`, the format's version and the number of
//! entries. Each entry: the position's Zobrist key (16 hex digits), the depth searched, the
//! score (centipawns for the side to move; mates as ±(32000 − plies)), the best move (UCI,
//! `0000` for none), a sequence number (larger is newer), the FEN, and a CRC-32 (IEEE, as
//! zlib's `crc32`) of the line before its last space, in 8 hex digits. A line whose
//! checksum, key, FEN or move does not hold, and a file with fewer lines than its header
//! announces, are reported, and the good entries kept. A file that does not begin with the
//! magic and version 1 is not a learn file: it is reported and never written over.
//!
//! The file is written whole to a temporary file beside it and renamed over it, so a crash
//! leaves the old file or the new one, never half of one. It holds at most `MAX_ENTRIES`
//! positions: the shallowest go first (the oldest of equally shallow ones), as they cost
//! the least to find again and say the least.

use super::MAX_ENTRIES;
use crate::board::Board;
use crate::rules::Notation;
use crate::types::{MATE, MAX_PLY, Move, Score};
use std::fs::{self, File};
use std::io::{ErrorKind, Read, Write};
use std::path::Path;

const MAGIC: &str = "ferrum-learn";
const VERSION: u32 = 1;
/// Read no more of a file than this (4,096 entries take about 400 KB).
const MAX_BYTES: u64 = 4 << 20;
/// Damaged lines named in a report; the rest are counted.
const LINES_NAMED: usize = 3;

/// One learned position.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnEntry {
    /// The position (without the game that led to it).
    pub board: Board,
    /// How deep the search that scored it went.
    pub depth: i32,
    /// Its score for the side to move.
    pub score: Score,
    /// Its best move; `Move::NONE` for none.
    pub mv: Move,
    /// When it was learned: larger is newer.
    pub seq: u64,
}

/// What a learn file held.
#[derive(Debug, Default)]
pub struct LearnFile {
    /// The good entries, oldest first.
    pub entries: Vec<LearnEntry>,
    /// What was wrong with the rest, by line.
    pub problems: Vec<String>,
}

impl LearnFile {
    /// The problems as one sentence, `None` when there are none.
    pub fn problem_report(&self) -> Option<String> {
        let (named, more) = self.problems.split_at(self.problems.len().min(LINES_NAMED));
        let mut text = named.join("; ");
        if !more.is_empty() {
            text += &format!("; {} more damaged lines", more.len());
        }
        (!named.is_empty()).then_some(text)
    }
}

/// Reads the learn file at `path`: a missing file is an empty one. `Err` when the file
/// cannot be read or is not a learn file (it must then not be written over).
pub fn read(path: &Path) -> Result<LearnFile, String> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(LearnFile::default()),
        Err(e) => return Err(format!("cannot read it: {e}")),
    };
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read it: {e}"))?;
    let long = bytes.len() as u64 > MAX_BYTES;
    bytes.truncate(MAX_BYTES as usize);
    let mut learned = parse(&bytes)?;
    if long {
        learned.problems.push(format!(
            "longer than {} MiB: the rest left out",
            MAX_BYTES >> 20
        ));
    }
    Ok(learned)
}

/// The entries of a learn file's bytes, and what was wrong with the others; `Err` when
/// the bytes are not a learn file.
pub fn parse(bytes: &[u8]) -> Result<LearnFile, String> {
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(' ').collect();
    let (magic, version) = (header.first().copied(), header.get(1).copied());
    if magic != Some(MAGIC) {
        return Err(format!(
            "not a learn file (it does not begin with '{MAGIC}')"
        ));
    }
    if version != Some(&VERSION.to_string()) {
        return Err(format!(
            "learn file version {}, where this Ferrum reads version {VERSION}",
            version.unwrap_or("(none)")
        ));
    }
    let mut learned = LearnFile::default();
    let announced = header.get(2).and_then(|n| n.parse::<usize>().ok());
    if announced.is_none() || header.len() != 3 {
        learned
            .problems
            .push("line 1: the header's entry count is damaged".into());
    }
    let mut found = 0;
    let unfinished = !text.ends_with('\n');
    let mut lines = lines.enumerate().peekable();
    while let Some((index, line)) = lines.next() {
        if line.is_empty() {
            continue;
        }
        found += 1;
        match parse_entry(line) {
            Ok(entry) => learned.entries.push(entry),
            // The file ends within this line.
            Err(_) if unfinished && lines.peek().is_none() => learned
                .problems
                .push(format!("line {}: cut short", index + 2)),
            Err(why) => learned.problems.push(format!("line {}: {why}", index + 2)),
        }
    }
    if let Some(announced) = announced.filter(|&n| n > found) {
        learned.problems.push(format!(
            "cut short: {announced} entries announced, {found} found"
        ));
    }
    let dropped = keep(&mut learned.entries, MAX_ENTRIES);
    if dropped > 0 {
        learned.problems.push(format!(
            "more than {MAX_ENTRIES} entries: the {dropped} shallowest left out"
        ));
    }
    Ok(learned)
}

/// One entry line, or what is wrong with it.
fn parse_entry(line: &str) -> Result<LearnEntry, String> {
    let no_checksum = "damaged: no checksum at its end";
    let (body, sum) = line.rsplit_once(' ').ok_or(no_checksum)?;
    let sum = (sum.len() == 8)
        .then(|| u32::from_str_radix(sum, 16).ok())
        .flatten()
        .ok_or(no_checksum)?;
    if crc32(body.as_bytes()) != sum {
        return Err("damaged: its checksum does not match".into());
    }
    let fields: Vec<&str> = body.split(' ').collect();
    let [key, depth, score, mv, seq, fen @ ..] = fields.as_slice() else {
        return Err("too few fields".into());
    };
    let number = |what: &str, text: &str, range: std::ops::RangeInclusive<i64>| {
        text.parse::<i64>()
            .ok()
            .filter(|n| range.contains(n))
            .ok_or(format!("{what} '{text}' is out of range"))
    };
    let key = u64::from_str_radix(key, 16).map_err(|_| format!("key '{key}' is not hex"))?;
    let depth = number("depth", depth, 1..=MAX_PLY as i64 - 1)? as i32;
    let score = number("score", score, -MATE as i64..=MATE as i64)? as Score;
    let seq = seq
        .parse::<u64>()
        .map_err(|_| format!("sequence number '{seq}' is not a number"))?;
    let fen = fen.join(" ");
    let board = Board::from_fen(&fen).map_err(|e| format!("FEN: {e}"))?;
    if board.key() != key {
        return Err(format!("key {key:016x} is not that of the FEN's position"));
    }
    let mv = match *mv {
        "0000" => Move::NONE,
        text => board.parse_move(text).map_err(|e| format!("move: {e}"))?,
    };
    Ok(LearnEntry {
        board,
        depth,
        score,
        mv,
        seq,
    })
}

/// The file's text for `entries`.
pub fn to_text(entries: &[LearnEntry]) -> String {
    let mut text = format!("{MAGIC} {VERSION} {}\n", entries.len());
    for e in entries {
        let mv = if e.mv == Move::NONE {
            "0000".into()
        } else {
            e.board.move_to_uci(e.mv)
        };
        let body = format!(
            "{:016x} {} {} {mv} {} {}",
            e.board.key(),
            e.depth,
            e.score,
            e.seq,
            e.board.to_fen()
        );
        text += &format!("{body} {:08x}\n", crc32(body.as_bytes()));
    }
    text
}

/// Writes `entries` to `path` safely: whole into a temporary file in the same directory
/// (a rename does not cross file systems), flushed to the disk, then renamed over the old
/// file, so that a crash at any point leaves one file or the other whole.
pub fn write(path: &Path, entries: &[LearnEntry]) -> Result<(), String> {
    let name = path
        .file_name()
        .ok_or_else(|| "cannot write it: not a file's name".to_string())?;
    // The process id keeps two engines sharing a file from writing into one temporary.
    let temp = path.with_file_name(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let written = File::create(&temp)
        .and_then(|mut file| {
            file.write_all(to_text(entries).as_bytes())?;
            file.sync_all()
        })
        .and_then(|()| fs::rename(&temp, path));
    written.map_err(|e| {
        let _ = fs::remove_file(&temp);
        format!("cannot write it: {e}")
    })
}

/// Keeps one entry per position (the deepest, the newest of equally deep ones) and at most
/// `max` entries, dropping the shallowest (the oldest of equally shallow ones) first.
/// Leaves them oldest first, and returns how many the bound dropped.
pub fn keep(entries: &mut Vec<LearnEntry>, max: usize) -> usize {
    let better = |a: &LearnEntry, b: &LearnEntry| b.depth.cmp(&a.depth).then(b.seq.cmp(&a.seq));
    entries.sort_by(|a, b| a.board.key().cmp(&b.board.key()).then(better(a, b)));
    entries.dedup_by_key(|e| e.board.key());
    entries.sort_by(better);
    let dropped = entries.len().saturating_sub(max);
    entries.truncate(max);
    entries.sort_by_key(|e| e.seq);
    dropped
}

/// CRC-32 (IEEE 802.3, reflected, as zlib computes it).
fn crc32(bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut table = [0; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut bit = 0;
            while bit < 8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
                bit += 1;
            }
            table[i] = c;
            i += 1;
        }
        table
    };
    !bytes.iter().fold(!0, |c, &b| {
        TABLE[((c ^ u32::from(b)) & 0xff) as usize] ^ (c >> 8)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FENS: [&str; 4] = [
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/8/PPPP1PPP/RNBQK1NR w KQkq - 2 3",
        "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "8/8/4k3/8/2K5/8/3P4/8 w - - 0 60",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    ];

    fn entry(fen: &str, depth: i32, score: Score, mv: &str, seq: u64) -> LearnEntry {
        let board = Board::from_fen(fen).unwrap();
        let mv = if mv == "0000" {
            Move::NONE
        } else {
            board.parse_move(mv).unwrap()
        };
        LearnEntry {
            board,
            depth,
            score,
            mv,
            seq,
        }
    }

    fn entries() -> Vec<LearnEntry> {
        vec![
            entry(FENS[0], 9, -212, "d1h5", 1),
            entry(FENS[1], 12, 30, "f3e5", 2),
            entry(FENS[2], 20, MATE - 41, "d2d4", 3),
            entry(FENS[3], 8, -5, "0000", 4),
        ]
    }

    /// A file of its own in the temporary directory.
    fn temp_path(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("ferrum-learn-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir.join("ferrum.learn")
    }

    #[test]
    fn crc32_is_zlibs() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
    }

    /// What is written is read back the same, through a real file.
    #[test]
    fn round_trip() {
        let path = temp_path("round-trip");
        assert!(read(&path).unwrap().entries.is_empty(), "missing is empty");
        write(&path, &entries()).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("ferrum-learn 1 4\n"), "{text}");
        assert!(text.contains(" -212 d1h5 1 r1bqkbnr/"), "{text}");
        let learned = read(&path).unwrap();
        assert_eq!(learned.problems, Vec::<String>::new());
        assert_eq!(learned.entries, entries());
        // Written again over the old file, nothing left beside it.
        write(&path, &entries()[..2]).unwrap();
        assert_eq!(read(&path).unwrap().entries, entries()[..2]);
        let dir = path.parent().unwrap();
        assert_eq!(fs::read_dir(dir).unwrap().count(), 1);
        fs::remove_dir_all(dir).unwrap();
    }

    /// A changed byte spoils its line's checksum: that line is reported by number and
    /// the others are kept.
    #[test]
    fn damaged_entry() {
        let text = to_text(&entries());
        let at = text.find("-212").unwrap();
        let mut bytes = text.clone().into_bytes();
        bytes[at + 1] = b'3';
        let learned = parse(&bytes).unwrap();
        assert_eq!(learned.entries, entries()[1..]);
        assert_eq!(learned.problems.len(), 1, "{:?}", learned.problems);
        assert!(learned.problems[0].starts_with("line 2: damaged"));
        // A line whose checksum holds but whose key is not its FEN's, and one that is
        // not UTF-8 at all.
        let lines: Vec<&str> = text.lines().collect();
        let body = lines[2].rsplit_once(' ').unwrap().0.replacen('0', "1", 1);
        let forged = format!("{body} {:08x}", crc32(body.as_bytes()));
        let mut bytes = [lines[0], lines[1], &forged, lines[3], lines[4]]
            .join("\n")
            .into_bytes();
        bytes.extend_from_slice(b"\n\xff\xfe\n");
        let learned = parse(&bytes).unwrap();
        assert_eq!(learned.entries.len(), 3);
        assert!(
            learned.problems[0].contains("line 3: key"),
            "{:?}",
            learned.problems
        );
        assert!(learned.problems[1].starts_with("line 6: damaged"));
        let report = learned.problem_report().unwrap();
        assert!(
            report.contains("line 3") && report.contains("line 6"),
            "{report}"
        );
    }

    /// A file cut anywhere keeps the entries before the cut, and says so.
    #[test]
    fn truncated() {
        let text = to_text(&entries());
        let lines: Vec<usize> = text.match_indices('\n').map(|(i, _)| i + 1).collect();
        // In the middle of the third entry.
        let learned = parse(&text.as_bytes()[..lines[2] + 30]).unwrap();
        assert_eq!(learned.entries, entries()[..2]);
        assert_eq!(
            learned.problems,
            [
                "line 4: cut short",
                "cut short: 4 entries announced, 3 found"
            ]
        );
        // At the end of a line: only the count tells.
        let learned = parse(&text.as_bytes()[..lines[3]]).unwrap();
        assert_eq!(learned.entries, entries()[..3]);
        assert_eq!(
            learned.problems,
            ["cut short: 4 entries announced, 3 found"]
        );
        // Within the header: nothing to keep, but still a learn file.
        let learned = parse(&text.as_bytes()[..14]).unwrap();
        assert!(learned.entries.is_empty());
        assert_eq!(learned.problems.len(), 1);
    }

    /// Files that are not learn files are refused as a whole.
    #[test]
    fn foreign_files() {
        for bytes in [
            &b""[..],
            b"\x00\x01binary book",
            b"ferrum-lear 1 0\n",
            b"ferrum-learn 2 0\n",
        ] {
            assert!(parse(bytes).is_err(), "{bytes:?}");
        }
        let dir = temp_path("foreign");
        let dir = dir.parent().unwrap();
        assert!(read(dir).is_err(), "a directory");
        assert!(write(&dir.join("no/such/dir/f.learn"), &entries()).is_err());
        fs::remove_dir_all(dir).unwrap();
    }

    /// The bound drops the shallowest, the oldest of equally shallow ones first; one entry
    /// is kept per position, the deepest.
    #[test]
    fn size_bound() {
        let mut kept = entries();
        kept.push(entry(FENS[1], 8, 99, "f3e5", 5));
        assert_eq!(keep(&mut kept, 4), 0);
        assert_eq!(kept, entries(), "the deeper entry of FENS[1] stays");
        kept.push(entry(FENS[1], 12, 44, "f3e5", 6));
        keep(&mut kept, 4);
        assert_eq!(
            kept[3],
            entry(FENS[1], 12, 44, "f3e5", 6),
            "as deep and newer"
        );
        let mut kept = entries();
        kept.push(entry(crate::board::START_FEN, 8, 0, "e2e4", 5));
        // Depths 9, 12, 20, 8 (older) and 8 (newer): to keep 4, the older depth 8 goes; to
        // keep 3, both.
        assert_eq!(keep(&mut kept.clone(), 4), 1);
        let mut three = kept.clone();
        assert_eq!(keep(&mut three, 3), 2);
        let seqs = |v: &[LearnEntry]| v.iter().map(|e| e.seq).collect::<Vec<_>>();
        assert_eq!(seqs(&three), [1, 2, 3]);
        keep(&mut kept, 4);
        assert_eq!(seqs(&kept), [1, 2, 3, 5]);
        // A file holding more than the bound is cut to it when read, shallowest first.
        let many: Vec<LearnEntry> = kings_only()
            .take(MAX_ENTRIES + 2)
            .enumerate()
            .map(|(seq, fen)| entry(&fen, 8 + (seq % 3) as i32, 0, "0000", seq as u64))
            .collect();
        let learned = parse(to_text(&many).as_bytes()).unwrap();
        assert_eq!(learned.entries.len(), MAX_ENTRIES);
        assert_eq!(
            learned.problems,
            [format!(
                "more than {MAX_ENTRIES} entries: the 2 shallowest left out"
            )]
        );
        let gone: Vec<u64> = many
            .iter()
            .filter(|e| !learned.entries.contains(e))
            .map(|e| e.seq)
            .collect();
        assert_eq!(gone, [0, 3], "the two oldest of depth 8");
    }

    /// Distinct legal positions: two kings, either side to move.
    fn kings_only() -> impl Iterator<Item = String> {
        (0..64usize).flat_map(|white| {
            (0..64usize).flat_map(move |black| {
                let apart = (white % 8)
                    .abs_diff(black % 8)
                    .max((white / 8).abs_diff(black / 8))
                    > 1;
                ["w", "b"]
                    .into_iter()
                    .filter(move |_| apart)
                    .map(move |side| {
                        let mut squares = ['1'; 64];
                        squares[white] = 'K';
                        squares[black] = 'k';
                        let ranks: Vec<String> = (0..8)
                            .rev()
                            .map(|rank| squares[rank * 8..rank * 8 + 8].iter().collect())
                            .collect();
                        format!("{} {side} - - 0 1", ranks.join("/"))
                    })
            })
        })
    }
}
