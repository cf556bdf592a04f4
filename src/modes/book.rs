//! `ferrum makebook`: a Polyglot opening book from the games of a PGN file.

use super::finish;
use clap::Args;
use ferrum::tools::makebook;
use ferrum::types::Color;
use std::path::PathBuf;
use std::process::ExitCode;

/// `ferrum makebook`.
#[derive(Args, Debug)]
pub struct MakebookArgs {
    /// PGN file of games
    pgn: PathBuf,
    /// The book to write
    #[arg(short, long, default_value = "book.bin")]
    output: PathBuf,
    /// Moves from the first N plies of each game
    #[arg(long, default_value_t = 30)]
    max_ply: usize,
    /// Keep a move only when at least N games played it
    #[arg(long, default_value_t = 3)]
    min_games: u32,
    /// Only White's moves
    #[arg(long, conflicts_with = "only_black")]
    only_white: bool,
    /// Only Black's moves
    #[arg(long)]
    only_black: bool,
}

/// Builds the book and says what went into it.
pub fn makebook(args: MakebookArgs) -> ExitCode {
    let settings = makebook::BookSettings {
        max_ply: args.max_ply,
        min_games: args.min_games,
        only: match (args.only_white, args.only_black) {
            (true, _) => Some(Color::White),
            (_, true) => Some(Color::Black),
            _ => None,
        },
    };
    finish(makebook::run(&args.pgn, &args.output, &settings).map(|s| {
        println!(
            "{} games read ({} skipped): {} moves in {} positions written to {}",
            s.games,
            s.skipped,
            s.entries,
            s.positions,
            args.output.display()
        );
    }))
}
