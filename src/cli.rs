//! The command line: which mode Ferrum runs in, with its arguments.

use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "ferrum",
    version,
    about = "Ferrum, a UCI and XBoard chess engine"
)]
#[command(arg_required_else_help = true)]
pub struct Cli {
    #[command(subcommand)]
    pub mode: Mode,
}

#[derive(Subcommand, Debug)]
pub enum Mode {
    /// Count the leaf nodes of the legal move tree to a depth
    Perft {
        /// Depth in plies
        depth: u32,
        /// Position to start from (default: the standard start position)
        #[arg(long)]
        fen: Option<String>,
    },
    /// Like perft, with the count below each root move (Stockfish's `go perft` format)
    Divide {
        /// Depth in plies
        depth: u32,
        /// Position to start from (default: the standard start position)
        #[arg(long)]
        fen: Option<String>,
    },
    /// Check the perft counts of an EPD suite (`FEN ;D1 20 ;D2 400 ...`)
    PerftSuite {
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
    },
}
