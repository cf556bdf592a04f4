//! `ferrum datagen`: self-play games that label positions for tuning the evaluation.
//!
//! Each game starts from the start position or an opening of an EPD file, plays a number of
//! random plies, then lets the engine play itself with a node (or depth) limit per move. The
//! quiet positions of the game (not in check, best move neither a capture nor a promotion,
//! no mate score) are written as `FEN | score | result`: the search score in centipawns and
//! the game's result, both from White's view (1.0, 0.5, 0.0). A game is written whole when
//! it ends, so an interrupted run leaves only complete games; the file is appended to.
//! Game `n` of a run depends only on the seed and `n`, so one thread gives the same file on
//! every run.

use crate::board::Board;
use crate::movegen::legal_moves;
use crate::search::{Limits, SearchOptions, Session, Signals, spawn_scoped};
use crate::tools::epd::Epd;
use crate::types::{Score, is_mate};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What to generate and how.
#[derive(Clone, Debug)]
pub struct Config {
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
    /// Random plies played before the engine takes over.
    pub random_plies: u32,
    /// Openings to start from (FENs); empty for the start position.
    pub openings: Vec<String>,
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
}

impl Default for Config {
    fn default() -> Config {
        Config {
            output: PathBuf::from("data.txt"),
            games: None,
            positions: None,
            nodes: 5_000,
            depth: None,
            threads: 1,
            seed: 1,
            random_plies: 8,
            openings: Vec::new(),
            max_opening_score: 400,
            resign_score: 1_000,
            resign_plies: 8,
            draw_score: 10,
            draw_plies: 16,
            draw_after: 80,
            max_plies: 400,
            hash_mb: 8,
        }
    }
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

/// Set by Ctrl-C: the games being played are finished and written, then the run ends.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[cfg(target_os = "linux")]
fn catch_interrupt() {
    extern "C" fn on_interrupt(_: libc::c_int) {
        INTERRUPTED.store(true, Ordering::Relaxed);
        // A second Ctrl-C ends the process at once.
        unsafe { libc::signal(libc::SIGINT, libc::SIG_DFL) };
    }
    // SAFETY: the handler only stores to an atomic and restores the default action, both
    // async-signal-safe.
    unsafe {
        libc::signal(
            libc::SIGINT,
            on_interrupt as *const () as libc::sighandler_t,
        )
    };
}

#[cfg(not(target_os = "linux"))]
fn catch_interrupt() {}

/// The totals of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: u64,
    pub positions: u64,
}

/// Runs datagen, printing a progress line to `progress` about once a second.
pub fn run(config: &Config, progress: &mut dyn Write) -> Result<Summary, String> {
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&config.output)
        .map_err(|e| format!("{}: {e}", config.output.display()))?;
    let out = Mutex::new(BufWriter::new(file));
    let next_game = AtomicU64::new(0);
    let games = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let failed: Mutex<Option<String>> = Mutex::new(None);
    let started = Instant::now();
    catch_interrupt();

    let more = || {
        !INTERRUPTED.load(Ordering::Relaxed)
            && failed.lock().is_ok_and(|f| f.is_none())
            && config
                .positions
                .is_none_or(|p| positions.load(Ordering::Relaxed) < p)
    };
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..config.threads.max(1))
            .filter_map(|_| {
                spawn_scoped(scope, "datagen", || {
                    let mut session = Session::new(config.hash_mb, SearchOptions::default());
                    while more() {
                        let n = next_game.fetch_add(1, Ordering::Relaxed);
                        if config.games.is_some_and(|g| n >= g) {
                            break;
                        }
                        let lines = play_game(config, n, &mut session);
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
                        if let Err(e) = written {
                            if let Ok(mut f) = failed.lock() {
                                *f = Some(e);
                            }
                            break;
                        }
                        positions.fetch_add(lines.len() as u64, Ordering::Relaxed);
                        games.fetch_add(1, Ordering::Relaxed);
                    }
                })
                .ok()
            })
            .collect();
        let mut last = Instant::now();
        while workers.iter().any(|w| !w.is_finished()) {
            std::thread::sleep(Duration::from_millis(50));
            if last.elapsed() >= Duration::from_secs(1) {
                last = Instant::now();
                let summary = Summary {
                    games: games.load(Ordering::Relaxed),
                    positions: positions.load(Ordering::Relaxed),
                };
                let _ = write!(progress, "\r{}", progress_line(config, summary, started));
                let _ = progress.flush();
            }
        }
    });
    let summary = Summary {
        games: games.load(Ordering::Relaxed),
        positions: positions.load(Ordering::Relaxed),
    };
    let _ = writeln!(progress, "\r{}", progress_line(config, summary, started));
    if let Some(e) = failed.into_inner().ok().flatten() {
        return Err(e);
    }
    Ok(summary)
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
    let left = left.map_or(String::new(), |l| {
        let l = l as u64;
        format!(", {}:{:02}:{:02} left", l / 3600, l / 60 % 60, l % 60)
    });
    format!(
        "{} positions, {} games, {rate:.0} positions/s, {:.0} s{left}   ",
        s.positions, s.games, seconds
    )
}

/// Plays game `n` and returns its labelled lines.
pub fn play_game(config: &Config, n: u64, session: &mut Session) -> Vec<String> {
    // A distinct stream per game, from the seed and the game's number alone.
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    session.clear();
    let mut board = opening(config, &mut rng, session);
    let limits = Limits {
        nodes: Some(config.nodes),
        depth: config.depth,
        ..Limits::default()
    };
    // Both sides share the table and the thread data, as one engine playing itself would.
    let mut kept: Vec<(String, Score)> = Vec::new();
    let mut winning_plies = 0;
    let mut drawn_plies = 0;
    let mut last_sign = 0;
    let result = loop {
        if let Some((result, _)) = board.game_over() {
            break match result {
                "1-0" => 1.0,
                "0-1" => 0.0,
                _ => 0.5,
            };
        }
        if board.plies_played() >= config.max_plies as usize {
            break 0.5;
        }
        let found = session.run(&board, &limits, &Signals::default(), &mut |_| {});
        let Some(best) = found.best else { break 0.5 };
        let white = found.score * board.side_to_move().sign();
        if !board.in_check() && !best.is_noisy() && !is_mate(found.score) {
            kept.push((board.to_fen(), white));
        }
        // Adjudication, on the score from White's view.
        let sign = white.signum();
        winning_plies = if white.abs() >= config.resign_score && sign == last_sign {
            winning_plies + 1
        } else {
            u32::from(white.abs() >= config.resign_score)
        };
        last_sign = sign;
        if winning_plies >= config.resign_plies {
            break if sign > 0 { 1.0 } else { 0.0 };
        }
        drawn_plies = if white.abs() <= config.draw_score {
            drawn_plies + 1
        } else {
            0
        };
        if board.plies_played() >= config.draw_after as usize && drawn_plies >= config.draw_plies {
            break 0.5;
        }
        board.make_move(best);
    };
    kept.into_iter()
        .map(|(fen, score)| format!("{fen} | {score} | {result:.1}"))
        .collect()
}

/// The game's starting position: an opening (or the start position) and the random plies,
/// drawn again until the position is playable and not already decided.
fn opening(config: &Config, rng: &mut ChaCha8Rng, session: &mut Session) -> Board {
    let check = Limits {
        nodes: Some(config.nodes),
        ..Limits::default()
    };
    for _ in 0..1_000 {
        let fen = match config.openings.len() {
            0 => None,
            n => config.openings.get(rng.next_u64() as usize % n),
        };
        let mut board = fen
            .and_then(|f| Board::from_fen(f).ok())
            .unwrap_or_else(Board::startpos);
        let mut playable = true;
        for _ in 0..config.random_plies {
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
