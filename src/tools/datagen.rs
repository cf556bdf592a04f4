//! `ferrum datagen`: self-play games that label positions, for the network and the tuner.
//!
//! Each game starts from the start position, an opening of an EPD file or (a chosen share
//! of the games) a Double Fischer Random position, plays a number of random plies, then
//! lets the engine play itself with a node (or depth) limit per move, until the game ends
//! or is adjudicated. Game `n` of a seed depends only on the seed and `n`, so one thread
//! gives the same data on every run.
//!
//! - Viriformat (for the network): each thread writes a shard of its own, `ferrum-<seed>.vf`
//!   in the output directory (seeds `seed`, `seed + 1`, ...), every move of every game
//!   with its score. A game is written whole with one write, so a run killed at any
//!   moment loses at most the games in play; run again, each shard goes on from its last
//!   whole game, and the result is the shard an uninterrupted run would have written.
//! - Text (for the tuner): the quiet positions (not in check, best move neither a capture
//!   nor a promotion, no mate score) as `FEN | score | result`, the search score in
//!   centipawns and the game's result, both from White's view (1.0, 0.5, 0.0), appended
//!   to one file.

use crate::board::Board;
use crate::evaluator::Evaluator;
use crate::formats::viri;
use crate::movegen::legal_moves;
use crate::rules::GameEnd;
use crate::search::{Limits, SearchOptions, Session, Signals, spawn_scoped};
use crate::tools::epd::Epd;
use crate::types::{Score, is_mate};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Seek, SeekFrom, Write};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What datagen writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Whole games in viriformat, one shard file a seed in the output directory, each
    /// continued where it stopped when run again (for the network).
    Viri,
    /// The quiet positions as `FEN | score | result` lines appended to one file (for
    /// the tuner).
    Text,
}

/// What to generate and how.
#[derive(Clone, Debug)]
pub struct Config {
    pub format: Format,
    /// The shards' directory (viriformat) or the file (text).
    pub output: PathBuf,
    /// Stop after this many games...
    pub games: Option<u64>,
    /// ...or once this many positions are written (whichever comes first).
    pub positions: Option<u64>,
    /// Search limit per move: nodes, and a depth if given.
    pub nodes: u64,
    pub depth: Option<i32>,
    pub threads: usize,
    pub seed: u64,
    /// Random plies played before the engine takes over: a number drawn for each game
    /// from this range (no draw when it holds one number, as before ranges existed).
    pub random_plies: RangeInclusive<u32>,
    /// Openings to start from (FENs); empty for the start position.
    pub openings: Vec<String>,
    /// Percent of the games (0 to 100) that start from a Double Fischer Random position
    /// instead of the start position or an opening. At 0 no draw is made for it, so the
    /// games are those of builds without the option.
    pub dfrc_percent: u32,
    /// Openings (after the random plies) scored beyond this are too lopsided to teach much.
    pub max_opening_score: Score,
    /// A game is won when the score stays at or beyond this for `resign_plies` plies...
    pub resign_score: Score,
    pub resign_plies: u32,
    /// ...and drawn when it stays within this for `draw_plies` plies after `draw_after`.
    pub draw_score: Score,
    pub draw_plies: u32,
    pub draw_after: u32,
    /// Longer games are drawn.
    pub max_plies: u32,
    pub hash_mb: usize,
    /// What the games are played with.
    pub evaluator: Evaluator,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            format: Format::Text,
            output: PathBuf::from("data.txt"),
            games: None,
            positions: None,
            nodes: 5_000,
            depth: None,
            threads: 1,
            seed: 1,
            random_plies: 8..=8,
            openings: Vec::new(),
            dfrc_percent: 0,
            max_opening_score: 400,
            resign_score: 1_000,
            resign_plies: 8,
            draw_score: 10,
            draw_plies: 16,
            draw_after: 80,
            max_plies: 400,
            hash_mb: 8,
            evaluator: Evaluator::default(),
        }
    }
}

impl Config {
    /// The options of the games' searches.
    fn search_options(&self) -> SearchOptions {
        SearchOptions {
            evaluator: self.evaluator.clone(),
            ..SearchOptions::default()
        }
    }
}

/// Reads `--random-plies`: a number (`8`) or an inclusive range (`8-9`).
pub fn parse_plies(text: &str) -> Result<RangeInclusive<u32>, String> {
    let number = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("'{text}' is not a number of plies (8) or a range of them (8-9)"))
    };
    let (low, high) = match text.split_once('-') {
        Some((low, high)) => (number(low)?, number(high)?),
        None => (number(text)?, number(text)?),
    };
    if low > high {
        return Err(format!("'{text}': the range ends below its start"));
    }
    Ok(low..=high)
}

/// The first rank of Chess960 start position `n` (0 to 959, in Scharnagl's numbering: 518
/// is the standard array), as piece letters from the a-file to the h-file.
pub fn chess960_rank(n: usize) -> [char; 8] {
    let mut rank = [' '; 8];
    let mut n = n % 960;
    // The bishops on squares of either colour, then the queen, the knights and R K R on
    // the squares left, each choice a digit of `n`.
    rank[2 * (n % 4) + 1] = 'b';
    n /= 4;
    rank[2 * (n % 4)] = 'b';
    n /= 4;
    let mut place = |letter: char, nth: usize| {
        let file = (0..8).filter(|&f| rank[f] == ' ').nth(nth).unwrap_or(0);
        rank[file] = letter;
    };
    place('q', n % 6);
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (first, second) = KNIGHTS[n];
    // The second knight's place counted before the first is put down.
    place('n', second);
    place('n', first);
    for letter in ['r', 'k', 'r'] {
        place(letter, 0);
    }
    rank
}

/// The Double Fischer Random start position with White's first rank Chess960 array
/// `white` and Black's `black` (0 to 959 each), all castling rights held, in Chess960
/// mode (king-takes-rook castling, Shredder-FEN).
pub fn dfrc_position(white: usize, black: usize) -> Board {
    let (white, black) = (chess960_rank(white), chess960_rank(black));
    let rooks = |rank: &[char; 8]| -> String {
        // Shredder-FEN: the rooks' files, the king's side first.
        (0..8)
            .rev()
            .filter(|&f| rank[f] == 'r')
            .map(|f| (b'a' + f as u8) as char)
            .collect()
    };
    let fen = format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w {}{} - 0 1",
        black.iter().collect::<String>(),
        white.iter().collect::<String>().to_ascii_uppercase(),
        rooks(&white).to_ascii_uppercase(),
        rooks(&black),
    );
    let mut board = Board::from_fen(&fen).expect("a Chess960 array is a legal position");
    board.set_chess960(true);
    board
}

/// Reads the openings of an EPD (or FEN-per-line) file; bad lines are errors.
pub fn read_openings(text: &str) -> Result<Vec<String>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, line)| {
            Board::from_fen(line.trim())
                .map(|b| b.to_fen())
                .or_else(|_| Epd::parse(line).map(|e| e.board.to_fen()))
                .map_err(|e| format!("line {}: {e}", i + 1))
        })
        .collect()
}

/// The totals of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: u64,
    pub positions: u64,
}

/// What the workers of a run share.
struct Progress {
    games: AtomicU64,
    positions: AtomicU64,
    failed: Mutex<Option<String>>,
}

impl Progress {
    /// Whether to start another game: no Ctrl-C, no failure, the positions not yet reached.
    fn more(&self, config: &Config) -> bool {
        !super::interrupt::interrupted()
            && self.failed.lock().is_ok_and(|f| f.is_none())
            && config
                .positions
                .is_none_or(|p| self.positions.load(Ordering::Relaxed) < p)
    }

    fn fail(&self, error: String) {
        if let Ok(mut failed) = self.failed.lock() {
            failed.get_or_insert(error);
        }
    }

    fn add(&self, positions: usize) {
        self.positions
            .fetch_add(positions as u64, Ordering::Relaxed);
        self.games.fetch_add(1, Ordering::Relaxed);
    }

    fn summary(&self) -> Summary {
        Summary {
            games: self.games.load(Ordering::Relaxed),
            positions: self.positions.load(Ordering::Relaxed),
        }
    }
}

/// Runs datagen, printing a progress line to `progress` about once a second.
pub fn run(config: &Config, progress: &mut dyn Write) -> Result<Summary, String> {
    let shared = Progress {
        games: AtomicU64::new(0),
        positions: AtomicU64::new(0),
        failed: Mutex::new(None),
    };
    let text_out = match config.format {
        Format::Text => Some(
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(&config.output)
                .map(|file| Mutex::new(BufWriter::new(file)))
                .map_err(|e| format!("{}: {e}", config.output.display()))?,
        ),
        Format::Viri => None,
    };
    let next_game = AtomicU64::new(0);
    let started = Instant::now();
    super::interrupt::catch();
    std::thread::scope(|scope| -> Result<(), String> {
        let workers: Vec<_> = match &text_out {
            Some(out) => {
                let (next_game, shared) = (&next_game, &shared);
                (0..config.threads.max(1))
                    .filter_map(|_| {
                        spawn_scoped(scope, "datagen", move || {
                            text_worker(config, out, next_game, shared)
                        })
                        .ok()
                    })
                    .collect()
            }
            None => {
                std::fs::create_dir_all(&config.output)
                    .map_err(|e| format!("{}: {e}", config.output.display()))?;
                let mut workers = Vec::new();
                for seed in (0..config.threads.max(1) as u64).map(|i| config.seed + i) {
                    let path = shard_path(&config.output, seed);
                    let (file, done) = open_shard(&path)?;
                    if done > 0 {
                        let _ = writeln!(progress, "{}: {done} games there", path.display());
                    }
                    let shared = &shared;
                    let worker = spawn_scoped(scope, "datagen", move || {
                        shard_worker(config, seed, file, done, shared)
                    });
                    workers.extend(worker.ok());
                }
                workers
            }
        };
        let mut last = Instant::now();
        while workers.iter().any(|w| !w.is_finished()) {
            std::thread::sleep(Duration::from_millis(50));
            if last.elapsed() >= Duration::from_secs(1) {
                last = Instant::now();
                let line = progress_line(config, shared.summary(), started);
                let _ = write!(progress, "\r{line}");
                let _ = progress.flush();
            }
        }
        Ok(())
    })?;
    let summary = shared.summary();
    let _ = writeln!(progress, "\r{}", progress_line(config, summary, started));
    match shared.failed.into_inner().ok().flatten() {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}

/// Plays games numbered from a counter shared by the workers and appends their quiet
/// positions as text lines.
fn text_worker(
    config: &Config,
    out: &Mutex<BufWriter<File>>,
    next_game: &AtomicU64,
    shared: &Progress,
) {
    let mut session = Session::new(config.hash_mb, config.search_options());
    while shared.more(config) {
        let n = next_game.fetch_add(1, Ordering::Relaxed);
        if config.games.is_some_and(|g| n >= g) {
            break;
        }
        let lines = text_lines(&play_game(config, config.seed, n, &mut session));
        let written = out
            .lock()
            .map_err(|_| "output lock poisoned".to_string())
            .and_then(|mut out| {
                lines
                    .iter()
                    .try_for_each(|l| writeln!(out, "{l}"))
                    .and_then(|_| out.flush())
                    .map_err(|e| format!("{}: {e}", config.output.display()))
            });
        match written {
            Ok(()) => shared.add(lines.len()),
            Err(e) => return shared.fail(e),
        }
    }
}

/// The file of the shard with `seed` in `dir`.
pub fn shard_path(dir: &Path, seed: u64) -> PathBuf {
    dir.join(format!("ferrum-{seed}.vf"))
}

/// Opens a shard to go on with: the games there are counted, and a game cut short (the
/// writer was killed while writing it) is cut off.
fn open_shard(path: &Path) -> Result<(File, u64), String> {
    let error = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(error)?;
    // A device or a pipe cannot be resumed or cut back (and /dev/zero would read as
    // endless empty games).
    if !file.metadata().map_err(error)?.is_file() {
        return Err(format!("{}: not a regular file", path.display()));
    }
    let (mut games, mut whole) = (0, 0);
    let mut reader = BufReader::new(&file);
    loop {
        match viri::next_raw(&mut reader) {
            Ok(Some(bytes)) => {
                // Each game's start position checked: a shard that is not one is refused
                // rather than written after.
                let header: &[u8; viri::HEADER] = bytes[..viri::HEADER]
                    .try_into()
                    .unwrap_or(&[0; viri::HEADER]);
                if let Err(e) = viri::decode_position(header) {
                    return Err(format!("{}: game {}: {e}", path.display(), games + 1));
                }
                games += 1;
                whole += bytes.len() as u64;
            }
            Ok(None) | Err(viri::ReadError::Truncated) => break,
            Err(e) => return Err(format!("{}: game {}: {e}", path.display(), games + 1)),
        }
    }
    file.set_len(whole).map_err(error)?;
    file.seek(SeekFrom::End(0)).map_err(error)?;
    Ok((file, games))
}

/// Plays the games of one shard from game `done` on, each written whole at once.
fn shard_worker(config: &Config, seed: u64, mut file: File, done: u64, shared: &Progress) {
    let mut session = Session::new(config.hash_mb, config.search_options());
    for n in done.. {
        if !shared.more(config) || config.games.is_some_and(|g| n >= g) {
            break;
        }
        let game = play_game(config, seed, n, &mut session);
        match file.write_all(&game.encode()) {
            Ok(()) => shared.add(game.moves.len()),
            Err(e) => return shared.fail(format!("shard {seed}: {e}")),
        }
    }
}

/// `positions, games, positions per second, time left` (time left when there is a target).
fn progress_line(config: &Config, s: Summary, started: Instant) -> String {
    let seconds = started.elapsed().as_secs_f64().max(1e-3);
    let rate = s.positions as f64 / seconds;
    let left = match (config.positions, config.games) {
        (Some(p), _) if s.positions > 0 => Some(p.saturating_sub(s.positions) as f64 / rate),
        (None, Some(g)) if s.games > 0 => {
            Some(g.saturating_sub(s.games) as f64 * seconds / s.games as f64)
        }
        _ => None,
    };
    let left = super::time_left(left);
    format!(
        "{} positions, {} games, {rate:.0} positions/s, {:.0} s{left}   ",
        s.positions, s.games, seconds
    )
}

/// The tuner's lines of a game: its quiet positions (not in check, the move played
/// neither a capture nor a promotion, no mate score) as `FEN | score | result`.
pub fn text_lines(game: &viri::Game) -> Vec<String> {
    let result = f32::from(game.wdl) / 2.0;
    game.positions()
        .filter(|(board, m, score)| {
            !board.in_check() && !m.is_noisy() && !is_mate(Score::from(*score))
        })
        .map(|(board, _, score)| format!("{} | {score} | {result:.1}", board.to_fen()))
        .collect()
}

/// Plays game `n` of the run with `seed`: its start, every move with its score (White's
/// view) and the result.
pub fn play_game(config: &Config, seed: u64, n: u64, session: &mut Session) -> viri::Game {
    // A distinct stream per game, from the seed and the game's number alone.
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    session.clear();
    let mut board = opening(config, &mut rng, session);
    let start = board.clone();
    let limits = Limits {
        nodes: Some(config.nodes),
        depth: config.depth,
        ..Limits::default()
    };
    // Both sides share the table and the thread data, as one engine playing itself would.
    let mut moves = Vec::new();
    let mut winning_plies = 0;
    let mut drawn_plies = 0;
    let mut last_sign = 0;
    let wdl = loop {
        if let Some((result, _)) = board.game_over() {
            break match result {
                "1-0" => 2,
                "0-1" => 0,
                _ => 1,
            };
        }
        if board.plies_played() >= config.max_plies as usize {
            break 1;
        }
        let found = session.run(&board, &limits, &Signals::default(), &mut |_| {});
        let Some(best) = found.best else { break 1 };
        let white = found.score * board.side_to_move().sign();
        moves.push((
            best,
            white.clamp(-i16::MAX as Score, i16::MAX as Score) as i16,
        ));
        // Adjudication, on the score from White's view.
        let sign = white.signum();
        winning_plies = if white.abs() >= config.resign_score && sign == last_sign {
            winning_plies + 1
        } else {
            u32::from(white.abs() >= config.resign_score)
        };
        last_sign = sign;
        if winning_plies >= config.resign_plies {
            break if sign > 0 { 2 } else { 0 };
        }
        drawn_plies = if white.abs() <= config.draw_score {
            drawn_plies + 1
        } else {
            0
        };
        if board.plies_played() >= config.draw_after as usize && drawn_plies >= config.draw_plies {
            break 1;
        }
        board.make_move(best);
    };
    viri::Game { start, moves, wdl }
}

/// The game's starting position: an opening (or the start position, or a DFRC position)
/// and the random plies, drawn again until the position is playable and not already
/// decided.
fn opening(config: &Config, rng: &mut ChaCha8Rng, session: &mut Session) -> Board {
    let check = Limits {
        nodes: Some(config.nodes),
        ..Limits::default()
    };
    // Draws only where an option asks for them, so that the default games stay those of
    // the builds before the options.
    let (low, high) = (*config.random_plies.start(), *config.random_plies.end());
    let plies = match high.checked_sub(low) {
        Some(0) | None => low,
        Some(spread) => low + (rng.next_u64() % (u64::from(spread) + 1)) as u32,
    };
    let dfrc = config.dfrc_percent > 0 && rng.next_u64() % 100 < u64::from(config.dfrc_percent);
    for _ in 0..1_000 {
        let mut board = if dfrc {
            let n = (rng.next_u64() % (960 * 960)) as usize;
            dfrc_position(n / 960, n % 960)
        } else {
            let fen = match config.openings.len() {
                0 => None,
                n => config.openings.get(rng.next_u64() as usize % n),
            };
            fen.and_then(|f| Board::from_fen(f).ok())
                .unwrap_or_else(Board::startpos)
        };
        let mut playable = true;
        for _ in 0..plies {
            let moves = legal_moves(&board);
            if moves.is_empty() {
                playable = false;
                break;
            }
            board.make_move(moves[rng.next_u64() as usize % moves.len()]);
        }
        if !playable || board.game_over().is_some() {
            continue;
        }
        let found = session.run(&board, &check, &Signals::default(), &mut |_| {});
        session.clear();
        if found.score.abs() <= config.max_opening_score {
            return board;
        }
    }
    Board::startpos()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn chess960_arrays_are_the_960() {
        let ranks: HashSet<[char; 8]> = (0..960).map(chess960_rank).collect();
        assert_eq!(ranks.len(), 960);
        for rank in &ranks {
            let files =
                |letter: char| -> Vec<usize> { (0..8).filter(|&f| rank[f] == letter).collect() };
            let (bishops, rooks, king) = (files('b'), files('r'), files('k'));
            assert_eq!(bishops.len(), 2);
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{rank:?}");
            assert_eq!((files('n').len(), files('q').len()), (2, 1));
            assert!(rooks[0] < king[0] && king[0] < rooks[1], "{rank:?}");
        }
        assert_eq!(chess960_rank(518).iter().collect::<String>(), "rnbqkbnr");
        // Scharnagl's first: BBQNNRKR.
        assert_eq!(chess960_rank(0).iter().collect::<String>(), "bbqnnrkr");
    }

    #[test]
    fn dfrc_positions_hold_every_castling_right() {
        let board = dfrc_position(518, 518);
        assert_eq!(
            board.to_fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
        assert_eq!(board.key(), Board::startpos().key());
        let board = dfrc_position(0, 959);
        assert_eq!(
            board.to_fen(),
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1"
        );
        assert!(board.is_chess960());
        // Every array, on either side, makes a position with all four rights.
        for n in 0..960 {
            for board in [dfrc_position(n, 518), dfrc_position(518, n)] {
                assert_eq!(board.castling().to_string().len(), 4, "{}", board.to_fen());
            }
        }
    }

    #[test]
    fn plies_are_a_number_or_a_range() {
        assert_eq!(parse_plies("8"), Ok(8..=8));
        assert_eq!(parse_plies("8-9"), Ok(8..=9));
        assert_eq!(parse_plies(" 6 - 10 "), Ok(6..=10));
        assert!(parse_plies("9-8").is_err());
        assert!(parse_plies("x").is_err());
        assert!(parse_plies("8-").is_err());
        assert!(parse_plies("-1").is_err());
    }
}
