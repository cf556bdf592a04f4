//! `ferrum annotate`: games reviewed as lichess.org or Crafty's `annotate` do it. Each
//! position of a game is searched once (`analyse.rs`), each move judged by the expected
//! score it gave away (`judge.rs`), and the game written out as PGN with evaluations,
//! verdicts and better lines (`write.rs`), an evaluation graph beside it on request
//! (`graph.rs`), and a summary line.
//!
//! Several games are analysed at once, one worker a game with a search thread each (or all
//! the threads on the one game there is). Games are written in the order of the file, each
//! whole as soon as it and those before it are done, so that Ctrl-C (which stops the
//! searches) leaves a valid file of the games finished.

pub mod analyse;
pub mod graph;
pub mod judge;
pub mod write;

use super::interrupt;
use super::pgn::PgnGame;
use crate::search::{SearchOptions, Session, Signals, spawn_scoped};
use analyse::{Analysis, Settings, analyse};
use judge::Tally;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Nodes a position by default: a 40-move game in well under a minute on one thread,
/// with verdicts that meet the floors of docs/annotate.md.
pub const DEFAULT_NODES: u64 = 200_000;

/// A run of the command.
#[derive(Clone, Debug)]
pub struct Config {
    pub settings: Settings,
    /// Search threads in all.
    pub threads: usize,
    /// Each worker's table, in MiB.
    pub hash_mb: usize,
    /// The evaluation and tablebases the searches use (threads are set per worker).
    pub options: SearchOptions,
    /// Where the evaluation graphs go, one SVG file a game.
    pub svg: Option<PathBuf>,
    /// The `Annotator` tag.
    pub annotator: String,
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: usize,
    /// Games written (all of them unless interrupted).
    pub written: usize,
    /// Games whose moves stopped being legal (annotated up to there) or could not start.
    pub faults: usize,
    pub interrupted: bool,
}

/// A game's analysis, or why it could not be made.
type Outcome = Result<Analysis, String>;

/// The file name of game `number`'s graph.
pub fn graph_name(number: usize) -> String {
    format!("game-{number:04}.svg")
}

/// The summary line of a game: its players and result, then each judged side's accuracy
/// and the moves it got wrong.
pub fn summary_line(game: &PgnGame, analysis: &Analysis) -> String {
    let tag = |name: &str| game.tag(name).unwrap_or("?").to_string();
    let mut line = format!(
        "game {}: {} - {} {}",
        game.number,
        tag("White"),
        tag("Black"),
        tag("Result")
    );
    for (side, tally) in ["White", "Black"].iter().zip(&analysis.tallies) {
        if let Some(accuracy) = tally.accuracy() {
            line += &format!("; {side}: accuracy {accuracy:.1}, {}", counts(tally));
        }
    }
    line
}

/// `2 inaccuracies, 1 mistake, 0 blunders`.
fn counts(tally: &Tally) -> String {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{}, {}, {}",
        plural(tally.inaccuracies, "inaccuracy", "inaccuracies"),
        plural(tally.mistakes, "mistake", "mistakes"),
        plural(tally.blunders, "blunder", "blunders")
    )
}

/// Positions a game's analysis searches at most (for the time left).
fn positions(game: &PgnGame, settings: &Settings) -> u64 {
    // Half the moves when one side is judged still needs every position after the first.
    let plies = game.moves.len() as u64;
    let skipped = 2 * u64::from(settings.from_move.saturating_sub(1));
    plies.saturating_sub(skipped) + 1
}

/// Analyses `games`, writing each annotated to `out` in their order (graphs to the SVG
/// directory), its summary line to `summary`, and progress and the games' faults to `log`.
pub fn run(
    games: &[PgnGame],
    config: &Config,
    out: &mut dyn Write,
    summary: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<Summary, String> {
    if let Some(dir) = &config.svg {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let workers = config.threads.clamp(1, games.len().max(1));
    let threads_each = (config.threads / workers).max(1);
    let total: u64 = games.iter().map(|g| positions(g, &config.settings)).sum();
    let next = AtomicUsize::new(0);
    let searched = AtomicU64::new(0);
    let signals = Signals::default();
    let (sender, results) = crossbeam_channel::unbounded::<(usize, Option<Outcome>)>();
    let started = Instant::now();
    let mut done = Summary {
        games: games.len(),
        ..Summary::default()
    };
    interrupt::catch();
    std::thread::scope(|scope| -> Result<(), String> {
        let mut started_workers = 0;
        for _ in 0..workers {
            let (next, searched, signals, sender) = (&next, &searched, &signals, sender.clone());
            let options = SearchOptions {
                threads: threads_each,
                ..config.options.clone()
            };
            let worker = spawn_scoped(scope, "annotate", move || {
                let mut session = Session::new(config.hash_mb, options);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games.len() || signals.stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let count = &mut || {
                        searched.fetch_add(1, Ordering::Relaxed);
                    };
                    let outcome =
                        analyse(&games[i], &config.settings, &mut session, signals, count);
                    if sender.send((i, outcome)).is_err() {
                        break;
                    }
                }
            });
            started_workers += usize::from(worker.is_ok());
        }
        drop(sender);
        if started_workers == 0 {
            return Err("cannot start a worker thread".into());
        }
        // On an error the workers are stopped, or the scope would wait for all the games.
        let written = collect(
            games,
            config,
            &results,
            (&searched, total, &signals, started),
            (out, summary, log),
            &mut done,
        );
        if written.is_err() {
            signals.stop.store(true, Ordering::Relaxed);
        }
        written
    })?;
    done.interrupted = signals.stop.load(Ordering::Relaxed);
    Ok(done)
}

/// Receives the workers' games and writes them in the order of the file, with progress
/// once a second; Ctrl-C stops the workers. Ends when every worker is done.
fn collect(
    games: &[PgnGame],
    config: &Config,
    results: &crossbeam_channel::Receiver<(usize, Option<Outcome>)>,
    (searched, total, signals, started): (&AtomicU64, u64, &Signals, Instant),
    (out, summary, log): (&mut dyn Write, &mut dyn Write, &mut dyn Write),
    done: &mut Summary,
) -> Result<(), String> {
    // Finished games wait here until those before them are written.
    let mut waiting: BTreeMap<usize, Option<Outcome>> = BTreeMap::new();
    let mut next_out = 0;
    let mut last_progress = Instant::now();
    let mut shown = false;
    loop {
        match results.recv_timeout(Duration::from_millis(50)) {
            Ok((i, outcome)) => {
                waiting.insert(i, outcome);
            }
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => break,
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => {}
        }
        if interrupt::interrupted() {
            signals.stop.store(true, Ordering::Relaxed);
        }
        while let Some(outcome) = waiting.remove(&next_out) {
            write_game(&games[next_out], outcome, config, out, summary, log, done)?;
            next_out += 1;
        }
        if last_progress.elapsed() >= Duration::from_secs(1) {
            last_progress = Instant::now();
            shown = true;
            let line = progress(
                next_out,
                games.len(),
                searched.load(Ordering::Relaxed),
                total,
                started,
            );
            let _ = write!(log, "\r{line}");
            let _ = log.flush();
        }
    }
    // Interrupted: the games finished after one that was not still go out, in order.
    for (i, outcome) in std::mem::take(&mut waiting) {
        write_game(&games[i], outcome, config, out, summary, log, done)?;
    }
    if shown {
        let line = progress(
            done.written,
            games.len(),
            searched.load(Ordering::Relaxed),
            total,
            started,
        );
        let _ = writeln!(log, "\r{line}");
    }
    Ok(())
}

/// Writes one game's outcome: the annotated game, or the game as it was when its first
/// position cannot be set up; nothing when it was stopped.
fn write_game(
    game: &PgnGame,
    outcome: Option<Outcome>,
    config: &Config,
    out: &mut dyn Write,
    summary: &mut dyn Write,
    log: &mut dyn Write,
    done: &mut Summary,
) -> Result<(), String> {
    let write_error = |e: std::io::Error| format!("cannot write the games: {e}");
    let Some(outcome) = outcome else {
        return Ok(());
    };
    let analysis = match outcome {
        Ok(analysis) => analysis,
        Err(e) => {
            let _ = writeln!(
                log,
                "annotate: game {}: {e}; written as it was",
                game.number
            );
            done.faults += 1;
            let mut text = String::new();
            for (name, value) in &game.tags {
                text += &super::pgn::tag_line(name, value);
                text.push('\n');
            }
            text += &format!("\n{}\n\n", game.movetext);
            out.write_all(text.as_bytes()).map_err(write_error)?;
            out.flush().map_err(write_error)?;
            done.written += 1;
            return Ok(());
        }
    };
    if let Some(fault) = &analysis.fault {
        done.faults += 1;
        let _ = writeln!(
            log,
            "annotate: game {}: move {} cannot be played ({}); annotated up to it",
            game.number, fault.text, fault.reason
        );
    }
    out.write_all(write::pgn(game, &analysis, &config.annotator).as_bytes())
        .and_then(|()| out.flush())
        .map_err(write_error)?;
    done.written += 1;
    writeln!(summary, "{}", summary_line(game, &analysis)).map_err(write_error)?;
    if let Some(dir) = &config.svg {
        let tag = |name: &str| game.tag(name).unwrap_or("?").to_string();
        let title = format!("{} - {} {}", tag("White"), tag("Black"), tag("Result"));
        let path = dir.join(graph_name(game.number));
        graph::svg(&title, &analysis)
            .and_then(|svg| std::fs::write(&path, svg).map_err(|e| e.to_string()))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// `games done, positions, positions a second, time left`.
fn progress(
    games_done: usize,
    games: usize,
    searched: u64,
    total: u64,
    started: Instant,
) -> String {
    let seconds = started.elapsed().as_secs_f64().max(1e-3);
    let rate = searched as f64 / seconds;
    let left = (searched > 0).then(|| total.saturating_sub(searched) as f64 / rate);
    format!(
        "{games_done}/{games} games, {searched}/{total} moves, {rate:.1} moves/s, {:.0} s{}   ",
        seconds,
        super::time_left(left)
    )
}
