//! Hostile input: random, truncated and oversized text sent to every parser and to the
//! running binary in every state. Nothing may panic or hang, the next valid command must be
//! answered correctly, and rejected input must leave the position as it was. The
//! generator is seeded, so a failure repeats.

mod common;

use common::Session;
use ferrum::board::Board;
use ferrum::comm::uci::Uci;
use ferrum::comm::xboard::XBoard;
use ferrum::comm::{Comm, CommIn};
use ferrum::engine::Options;
use ferrum::movegen::legal_moves;
use ferrum::rules::Notation;
use ferrum::tools::epd::Epd;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use std::io::Write;
use std::time::Duration;

/// Words the parsers know, and words that look like their arguments, one space apart.
const WORDS: &str = "uci isready setoption name value position startpos fen moves go ponder \
    wtime btime winc binc movestogo depth nodes mate movetime infinite searchmoves perft stop \
    ponderhit ucinewgame debug on off register later xboard protover new variant force \
    playother usermove level st sd nps time otim ? ping draw result setboard edit hint bk \
    undo remove hard easy post nopost analyze exit . rating computer memory cores option \
    Hash Threads MultiPV Ponder UCI_Chess960 Move Overhead true false e2e4 e7e8q e1g1 a1h8 \
    z9z9 e2e 0000 O-O Nf3 @ # 1-0 -1 0 1 -0 99999999999999999999 18446744073709551616 \
    -9223372036854775809 1e308 nan inf 0.5 -0.1 1:30 :: 40/2 \
    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w b KQkq - e3 8/8/8/8/8/8/8/8 kK 9/9 \
    pppppppppppppppp/8 bm am id ; \" = \t \u{feff} \u{fc} \u{0} \u{7f} \u{1f600}";

/// A random line: known words, random characters, or a valid line cut short.
fn random_line(rng: &mut ChaCha8Rng) -> String {
    let words: Vec<&str> = WORDS.split(' ').collect();
    let pick = |rng: &mut ChaCha8Rng| words[rng.next_u32() as usize % words.len()];
    match rng.next_u32() % 4 {
        0 => {
            let n = 1 + rng.next_u32() % 12;
            (0..n).map(|_| pick(rng)).collect::<Vec<_>>().join(" ")
        }
        1 => {
            let n = rng.next_u32() % 80;
            (0..n)
                .map(|_| char::from_u32(rng.next_u32() % 0x3000).unwrap_or('?'))
                .filter(|c| *c != '\n' && *c != '\r')
                .collect()
        }
        2 => {
            let valid = [
                "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e2a6 b4c3",
                "setoption name Move Overhead value 100",
                "go wtime 1000 btime 1000 winc 10 binc 10 movestogo 5",
                "level 40 5:30 0.5",
                "setboard 4k3/8/8/8/8/8/8/4K2R w K - 0 1",
            ];
            let line = valid[rng.next_u32() as usize % valid.len()];
            let cut = rng.next_u32() as usize % line.len();
            line.chars().take(cut).collect()
        }
        _ => {
            let n = 1 + rng.next_u32() % 6;
            (0..n)
                .map(|_| {
                    let word = pick(rng);
                    // Swap one character for a random one.
                    let mut chars: Vec<char> = word.chars().collect();
                    if !chars.is_empty() {
                        let i = rng.next_u32() as usize % chars.len();
                        chars[i] = char::from_u32(0x20 + rng.next_u32() % 0x60).unwrap_or('x');
                    }
                    chars.into_iter().collect::<String>()
                })
                .collect::<Vec<_>>()
                .join(" ")
        }
    }
}

fn rejected(command: &CommIn) -> bool {
    matches!(command, CommIn::Invalid(_) | CommIn::Unknown(_))
}

/// Every parser takes any text without panicking, and what it accepts is sound.
#[test]
fn parsers_take_any_text() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
    let board =
        Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let (uci, xboard) = (Uci, XBoard::default());
    for _ in 0..30_000 {
        let line = random_line(&mut rng);
        let _ = uci.parse(&line);
        let _ = xboard.parse(&line);
        let _ = Epd::parse(&line);
        if let Ok(m) = board.parse_move(&line) {
            assert!(legal_moves(&board).contains(&m), "{line}");
        }
        if let Ok(b) = Board::from_fen(&line) {
            b.check_consistency().unwrap();
            let _ = legal_moves(&b);
            assert_eq!(Board::from_fen(&b.to_fen()).unwrap().to_fen(), b.to_fen());
        }
        let mut options = Options::default();
        let (name, value) = line.split_once(' ').unwrap_or((&line, ""));
        if options.set(name, Some(value)).is_err() {
            assert_eq!(options, Options::default(), "{line}");
        }
    }
}

/// FENs with one field damaged: an error, or a sound position.
#[test]
fn damaged_fens() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let fens = include_str!("../epd/perft.epd")
        .lines()
        .filter_map(|l| l.split(';').next())
        .collect::<Vec<_>>();
    for _ in 0..20_000 {
        let fen = fens[rng.next_u32() as usize % fens.len()].trim();
        let mut bytes = fen.as_bytes().to_vec();
        for _ in 0..1 + rng.next_u32() % 3 {
            let i = rng.next_u32() as usize % bytes.len();
            match rng.next_u32() % 3 {
                0 => {
                    bytes[i] = b"pnbrqkPNBRQK12345678/ -wbKQkqa-h0-9"[rng.next_u32() as usize % 35]
                }
                1 => {
                    bytes.remove(i);
                }
                _ => bytes.insert(i, b"/8 kK-"[rng.next_u32() as usize % 6]),
            }
            if bytes.is_empty() {
                break;
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(board) = Board::from_fen(&text) {
            board.check_consistency().unwrap();
            for m in legal_moves(&board).iter() {
                let mut after = board.clone();
                after.make_move(*m);
                after.check_consistency().unwrap();
            }
        }
    }
}

/// Lines that the protocol rejects, for sending to the binary.
fn garbage(rng: &mut ChaCha8Rng, comm: &dyn Comm, count: usize) -> Vec<String> {
    let mut lines = Vec::new();
    while lines.len() < count {
        let line = random_line(rng);
        if rejected(&comm.parse(&line)) {
            lines.push(line);
        }
    }
    lines
}

/// The last search line and the move of a fixed-depth search from a cleared table: the
/// same position gives the same lines.
fn fixed_search(s: &mut Session) -> (String, String) {
    s.send("setoption name Clear Hash");
    s.send("go depth 7");
    let (lines, best) = s.bestmove();
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth 7 "))
        .cloned()
        .unwrap_or_default();
    assert!(!info.is_empty(), "{lines:?}");
    // Time and speed vary; depth, score, nodes and PV do not.
    let info = info.split(" nps ").next().unwrap().to_string();
    (info, best)
}

#[test]
fn uci_garbage_in_every_state() {
    let position =
        "position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
    let mut reference = Session::uci();
    reference.send(position);
    let expected = fixed_search(&mut reference);

    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut s = Session::uci();
    s.send(position);
    let send_all = |s: &mut Session, rng: &mut ChaCha8Rng| {
        for line in garbage(rng, &Uci, 300) {
            s.send(&line);
        }
    };
    // Idle.
    send_all(&mut s, &mut rng);
    s.ready();
    // Thinking.
    s.send("go infinite");
    send_all(&mut s, &mut rng);
    s.ready();
    s.send("stop");
    s.bestmove();
    // Pondering.
    s.send("go ponder wtime 10000 btime 10000");
    send_all(&mut s, &mut rng);
    s.ready();
    s.send("ponderhit");
    s.bestmove();
    assert_eq!(fixed_search(&mut s), expected);
}

#[test]
fn xboard_garbage_in_every_state() {
    let setup = |s: &mut Session| {
        s.send("xboard");
        s.send("protover 2");
        s.until(|l| l.contains("done=1"));
        s.send("new");
        s.send("force");
        s.send("setboard r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    };
    let reply = |s: &mut Session| {
        s.send("sd 6");
        s.send("go");
        s.until(|l| l.starts_with("move ")).last().unwrap().clone()
    };
    let mut reference = Session::start(&["xboard"]);
    setup(&mut reference);
    let expected = reply(&mut reference);

    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut s = Session::start(&["xboard"]);
    setup(&mut s);
    let comm = XBoard::default();
    let mut ping = 0;
    let mut sync = |s: &mut Session| {
        ping += 1;
        s.send(&format!("ping {ping}"));
        s.until(|l| l == format!("pong {ping}"));
    };
    // Force mode (observing).
    for line in garbage(&mut rng, &comm, 300) {
        s.send(&line);
    }
    sync(&mut s);
    // Analysing.
    s.send("analyze");
    for line in garbage(&mut rng, &comm, 300) {
        s.send(&line);
    }
    sync(&mut s);
    s.send("exit");
    s.send("force");
    sync(&mut s);
    // Thinking: garbage, then move now, and the move taken back.
    s.send("st 30");
    s.send("go");
    for line in garbage(&mut rng, &comm, 300) {
        s.send(&line);
    }
    s.send("?");
    s.until(|l| l.starts_with("move "));
    s.send("force");
    s.send("undo");
    sync(&mut s);
    // Pondering after our move: garbage, then our move taken back.
    s.send("hard");
    s.send("st 0.2");
    s.send("go");
    s.until(|l| l.starts_with("move "));
    for line in garbage(&mut rng, &comm, 300) {
        s.send(&line);
    }
    s.send("force");
    s.send("easy");
    s.send("undo");
    sync(&mut s);
    assert_eq!(reply(&mut s), expected);
}

/// A line of a megabyte, bytes that are not UTF-8, carriage returns, and a game of 200,000
/// plies in one `position` command.
#[test]
fn oversized_and_odd_lines() {
    let mut s = Session::uci();
    let big = "x".repeat(1 << 20);
    s.send(&big);
    assert!(s.until(|_| true)[0].starts_with("info string error"));
    s.ready();
    let stdin = s.stdin.as_mut().unwrap();
    stdin
        .write_all(b"\xc3\x28 go \xff depth 1\r\nisready\r\n")
        .unwrap();
    stdin.flush().unwrap();
    s.until(|l| l == "readyok");
    let shuffle = " g1f3 g8f6 f3g1 f6g8".repeat(50_000);
    s.send(&format!("position startpos moves{shuffle}"));
    s.send("go depth 3");
    let (_, best) = s.bestmove();
    let mv = best.split(' ').nth(1).unwrap();
    assert!(Board::startpos().parse_move(mv).is_ok(), "{best}");
}

/// Thread and file-handle counts of a process (Linux).
fn threads_and_files(s: &Session) -> (usize, usize) {
    let count = |dir: String| std::fs::read_dir(dir).map_or(0, |d| d.count());
    let pid = s.child.id();
    (
        count(format!("/proc/{pid}/task")),
        count(format!("/proc/{pid}/fd")),
    )
}

/// A thousand new games with a search each, Threads switched back and forth: no thread or
/// file handle is left behind, and memory never went beyond the table's size plus a little
/// (the peak resident size, after a long game too).
#[test]
fn no_leaks_across_games() {
    if !std::path::Path::new("/proc/self/task").exists() {
        return;
    }
    let mut s = Session::uci();
    s.send("setoption name Hash value 16");
    s.send("position startpos");
    s.send("go depth 2");
    s.bestmove();
    let before = threads_and_files(&s);
    for game in 0..1_000 {
        s.send(&format!("setoption name Threads value {}", 1 + game % 2));
        s.send("ucinewgame");
        s.send("position startpos moves e2e4");
        s.send("go depth 2");
        s.bestmove();
    }
    s.ready();
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(threads_and_files(&s), before);
    // A long game: up to 400 plies, each searched from the start with the whole history.
    let mut board = Board::startpos();
    let mut moves = String::new();
    for _ in 0..400 {
        s.send(&format!("position startpos moves{moves}"));
        s.send("go nodes 3000");
        let (_, best) = s.bestmove();
        let Some(mv) = best.split(' ').nth(1).filter(|&m| m != "0000") else {
            break;
        };
        board.make_move(board.parse_move(mv).unwrap());
        moves.push(' ');
        moves.push_str(mv);
    }
    assert!(board.plies_played() > 40, "{moves}");
    let status = std::fs::read_to_string(format!("/proc/{}/status", s.child.id())).unwrap();
    let rss_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    assert!(
        rss_kib < (16 + 32) * 1024,
        "peak resident {rss_kib} KiB with Hash 16"
    );
}
