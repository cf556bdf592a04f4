//! The command line: which mode Ferrum runs in; each mode's arguments are declared beside
//! its body in `modes/`.

use crate::modes::Globals;
use crate::modes::annotate::AnnotateArgs;
use crate::modes::book::{EcoArgs, MakebookArgs};
use crate::modes::data::{DataCommand, DatagenArgs};
use crate::modes::fitting::{CalibrateArgs, TrainArgs, TuneArgs};
use crate::modes::play::PlayArgs;
use crate::modes::position::{EvalArgs, PerftArgs, PerftSuiteArgs};
use crate::modes::search::{BenchArgs, ProbeArgs, TestArgs};
use clap::{Args, Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "ferrum",
    version,
    about = "Ferrum, a UCI and XBoard chess engine"
)]
pub struct Cli {
    /// Without a mode, Ferrum reads console commands from standard input ('help' lists them)
    #[command(subcommand)]
    pub mode: Option<Mode>,
    #[command(flatten)]
    pub engine: Globals,
}

/// A mode that searches or plays: its own arguments and the engine's flags.
#[derive(Args, Debug)]
pub struct Searching<A: Args> {
    #[command(flatten)]
    pub args: A,
    #[command(flatten)]
    pub engine: Globals,
}

#[derive(Subcommand, Debug)]
pub enum Mode {
    /// Speak UCI (also chosen when the first input line is `uci`)
    Uci(Globals),
    /// Speak XBoard/CECP (also chosen when the first input line is `xboard`)
    Xboard(Globals),
    /// Count the leaf nodes of the legal move tree to a depth
    Perft(PerftArgs),
    /// Like perft, with the count below each root move (Stockfish's `go perft` format)
    Divide(PerftArgs),
    /// Search a fixed set of positions; the last line, `<nodes> nodes <nps> nps`, is the signature
    Bench(Searching<BenchArgs>),
    /// Print the static evaluation of a position with its parts
    Eval(Searching<EvalArgs>),
    /// Run an EPD test suite (bm/am operations) and count the positions solved
    Test(Searching<TestArgs>),
    /// Play the engine against itself and write the games (viriformat shards, for the
    /// network) or their quiet positions (text, for the tuner)
    Datagen(Searching<DatagenArgs>),
    /// Training data: statistics, conversion to bulletformat, shuffling
    #[command(subcommand)]
    Data(DataCommand),
    /// Train a network on bulletformat positions and write it quantised for the engine
    Train(TrainArgs),
    /// Show a network file's calibration (WDL model, UCI_Elo node budgets), or write the
    /// network with another
    Calibrate(CalibrateArgs),
    /// Fit the evaluation's weights to labelled positions (Texel's method) and write them as
    /// Rust source
    Tune(TuneArgs),
    /// Print the Syzygy tablebase value (WDL, -2 to 2) and distance to zeroing (DTZ) of a
    /// position and of each legal move
    /// (the tables given by --syzygy)
    Probe(Searching<ProbeArgs>),
    /// Build a Polyglot opening book from the games of a PGN file
    Makebook(MakebookArgs),
    /// Name openings by ECO code and name: a PGN file's games (written out with ECO and
    /// Opening tags), a FEN, or a line of moves
    Eco(EcoArgs),
    /// Play a game against Ferrum in the terminal: moves in SAN or coordinates, the board
    /// after each move, clocks, undo, hint, resign, flip, pgn ('help' in the game)
    Play(Searching<PlayArgs>),
    /// Review the games of a PGN file: every move evaluated, inaccuracies, mistakes and
    /// blunders marked with the better line, each side's accuracy, and evaluation graphs
    Annotate(Searching<AnnotateArgs>),
    /// Check the perft counts of an EPD suite (`FEN ;D1 20 ;D2 400 ...`)
    PerftSuite(PerftSuiteArgs),
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// clap's own checks (no flag declared twice in a mode, and so on).
    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }
}
