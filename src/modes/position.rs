//! The modes that look at one position without searching it: `perft`, `divide`,
//! `perft-suite` and `eval`.

use super::{Globals, board_from, fail, finish};
use clap::Args;
use ferrum::tools::perft_suite;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// `ferrum perft` and `ferrum divide`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies
    depth: u32,
    /// Position to start from (default: the standard start position)
    #[arg(long)]
    fen: Option<String>,
}

/// Leaf count, time and speed.
pub fn perft(args: PerftArgs) -> ExitCode {
    finish(board_from(args.fen.as_deref()).map(|mut board| {
        let start = Instant::now();
        let nodes = ferrum::movegen::perft(&mut board, args.depth);
        let elapsed = start.elapsed();
        let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
        let ms = elapsed.as_millis();
        println!("depth {} nodes {nodes} time {ms} nps {nps}", args.depth);
    }))
}

/// The count below each root move, then the total (Stockfish's `go perft` format).
pub fn divide(args: PerftArgs) -> ExitCode {
    finish(board_from(args.fen.as_deref()).map(|mut board| {
        let mut total = 0;
        for (m, nodes) in ferrum::movegen::divide(&mut board, args.depth) {
            println!("{}: {nodes}", board.move_to_uci(m));
            total += nodes;
        }
        println!("\nNodes searched: {total}");
    }))
}

/// `ferrum eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// A file of positions (FEN or EPD lines): one line of scores for each
    #[arg(conflicts_with = "fen")]
    file: Option<PathBuf>,
    /// Position (default: the standard start position)
    #[arg(long)]
    fen: Option<String>,
}

/// The network's score and the hand-crafted evaluation by term; or, for a file, both
/// scores of each position.
pub fn eval(args: EvalArgs, globals: &Globals) -> ExitCode {
    let evaluator = match super::evaluator(globals) {
        Ok(evaluator) => evaluator,
        Err(e) => return fail(e),
    };
    // With --hce the file's positions are scored by the built-in network beside it.
    let network = evaluator
        .network()
        .cloned()
        .unwrap_or_else(ferrum::nnue::embedded);
    if let Some(file) = args.file {
        return match std::fs::read_to_string(&file) {
            Ok(text) => {
                let mut out = std::io::stdout().lock();
                let summary = ferrum::tools::evaluate::evaluate_lines(&text, &network, &mut out);
                eprintln!(
                    "eval: {} positions; lines skipped: {}",
                    summary.0, summary.1
                );
                ExitCode::SUCCESS
            }
            Err(e) => fail(format!("cannot read {}: {e}", file.display())),
        };
    }
    finish(board_from(args.fen.as_deref()).map(|board| {
        println!("{}", ferrum::ui::eval_text(&board, &evaluator));
    }))
}

/// `ferrum perft-suite`.
#[derive(Args, Debug)]
pub struct PerftSuiteArgs {
    /// EPD file, e.g. epd/perft.epd or epd/perft960.epd
    file: PathBuf,
    /// Skip counts above this many leaves
    #[arg(long)]
    max_nodes: Option<u64>,
    /// Skip depths above this one
    #[arg(long)]
    max_depth: Option<u32>,
    /// Worker threads (positions are shared out between them)
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// Checks every count of a perft suite; fails if one is wrong.
pub fn perft_suite(args: PerftSuiteArgs) -> ExitCode {
    let limits = perft_suite::Limits {
        max_nodes: args.max_nodes.unwrap_or(u64::MAX),
        max_depth: args.max_depth.unwrap_or(u32::MAX),
    };
    let mut out = std::io::stdout();
    match perft_suite::run_file(&args.file, limits, args.threads, &mut out) {
        Ok(summary) if summary.failed == 0 => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => fail(e),
    }
}
