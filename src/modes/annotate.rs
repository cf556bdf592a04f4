//! `ferrum annotate`: the games of a PGN file reviewed, written out with evaluations,
//! verdicts (`?!`, `?`, `??`), better lines and each side's accuracy, with a summary line a
//! game and, on request, an evaluation graph a game.

use super::{Globals, fail, search_options};
use clap::Args;
use ferrum::rules::Notation;
use ferrum::search::Limits;
use ferrum::tools::annotate::{self, Config, DEFAULT_NODES, analyse::Settings};
use ferrum::tools::pgn::{PgnGame, PgnReader};
use ferrum::types::Color;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// `ferrum annotate`.
#[derive(Args, Debug)]
pub struct AnnotateArgs {
    /// PGN file of the games (`-` for standard input)
    pgn: PathBuf,
    /// The annotated games' file; without one they go to standard output, and the summary
    /// lines to standard error
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Nodes for each position (the default is 200000)
    #[arg(long, group = "limit")]
    nodes: Option<u64>,
    /// Seconds for each position
    #[arg(long, group = "limit")]
    time: Option<f64>,
    /// Depth for each position
    #[arg(long, group = "limit")]
    depth: Option<i32>,
    /// Search threads: several games at once, or all of them on a single game
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Whose moves to judge
    #[arg(long, default_value = "both", value_parser = ["white", "black", "both"])]
    side: String,
    /// Judge the moves from this move number on
    #[arg(long, value_name = "MOVE", default_value_t = 1)]
    from: u16,
    /// Write an evaluation graph of each game into this directory (game-0001.svg, ...)
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
    /// Search the positions from the first to the last rather than from the last back
    #[arg(long)]
    forwards: bool,
    /// Transposition table of each game being analysed, in MiB
    #[arg(long, default_value_t = 64)]
    hash: usize,
}

/// The games of `path` (`-`: standard input); an unreadable file or one without games is
/// an error.
fn read_games(path: &PathBuf) -> Result<Vec<PgnGame>, String> {
    let input: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let file = std::fs::File::open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        Box::new(std::io::BufReader::new(file))
    };
    let games = PgnReader::new(input)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    // Text that is not PGN reads as games of moves that cannot be played and no tags.
    let pgn = |g: &PgnGame| {
        !g.tags.is_empty()
            || g.start()
                .is_ok_and(|b| g.moves.first().is_some_and(|m| b.parse_san(m).is_ok()))
    };
    if !games.iter().any(pgn) {
        return Err(format!("{}: no PGN games", path.display()));
    }
    Ok(games)
}

/// Annotates the games; fails on unreadable input or output, and after Ctrl-C (the games
/// finished are written).
pub fn annotate(args: AnnotateArgs, globals: &Globals) -> ExitCode {
    let games = match read_games(&args.pgn) {
        Ok(games) => games,
        Err(e) => return fail(e),
    };
    let options = match search_options(globals) {
        Ok(options) => options,
        Err(e) => return fail(e),
    };
    let limits = match (args.depth, args.time, args.nodes) {
        (Some(d), _, _) => Limits::depth(d.clamp(1, 64)),
        (_, Some(t), _) => Limits::movetime((t.clamp(0.001, 1e6) * 1000.0) as u64),
        (_, _, n) => Limits::nodes(n.unwrap_or(DEFAULT_NODES).max(1)),
    };
    let budget = match (&args.depth, &args.time) {
        (Some(d), _) => format!("depth {d}"),
        (_, Some(t)) => format!("{t} s"),
        _ => format!("{} nodes", limits.nodes.unwrap_or_default()),
    };
    let config = Config {
        settings: Settings {
            limits,
            side: match args.side.as_str() {
                "white" => Some(Color::White),
                "black" => Some(Color::Black),
                _ => None,
            },
            from_move: args.from.max(1),
            backwards: !args.forwards,
            ..Settings::default()
        },
        threads: args.threads.clamp(1, 256),
        hash_mb: args.hash.clamp(1, 65_536),
        annotator: format!(
            "Ferrum {} ({}, {budget} a position)",
            env!("CARGO_PKG_VERSION"),
            options.evaluator.name()
        ),
        options,
        svg: args.svg,
    };
    let mut stderr = std::io::stderr();
    let ran = match &args.output {
        Some(path) => match std::fs::File::create(path) {
            Ok(file) => annotate::run(
                &games,
                &config,
                &mut std::io::BufWriter::new(file),
                &mut std::io::stdout(),
                &mut stderr,
            ),
            Err(e) => return fail(format!("cannot write {}: {e}", path.display())),
        },
        None => annotate::run(
            &games,
            &config,
            &mut std::io::stdout().lock(),
            &mut std::io::stderr(),
            &mut stderr,
        ),
    };
    match ran {
        Ok(summary) if summary.interrupted => fail(format!(
            "interrupted: the {} of {} games finished are written",
            summary.written, summary.games
        )),
        Ok(summary) => {
            let faults = match summary.faults {
                0 => String::new(),
                n => format!(" ({n} with moves that cannot be played)"),
            };
            let _ = writeln!(stderr, "annotate: {} games{faults}", summary.written);
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}
