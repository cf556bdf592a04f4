//! `ferrum play`: a game against Ferrum in the terminal.

use super::{Globals, fail, search_options};
use clap::Args;
use ferrum::book::Book;
use ferrum::ui::game::{self, Side};
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// `ferrum play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Your side: white, black or random
    #[arg(default_value = "white")]
    side: Side,
    /// Time control, minutes+seconds per move (e.g. 5+3); 'none' for no clocks
    #[arg(long, default_value = "5+3")]
    tc: String,
    /// Ferrum's strength on the UCI_Elo scale (1000 to 2800); full strength without it
    #[arg(long)]
    elo: Option<u32>,
    /// Position to start from (default: the standard start position)
    #[arg(long)]
    fen: Option<String>,
    /// Append each finished game to this PGN file
    #[arg(long)]
    pgn_out: Option<PathBuf>,
    /// Letters for the pieces rather than Unicode figurines
    #[arg(long)]
    ascii: bool,
    /// Transposition table size in MiB
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Search threads
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// Plays games with the person at the keyboard until they quit.
pub fn play(args: PlayArgs, globals: &Globals) -> ExitCode {
    let time_control = match args.tc.as_str() {
        "none" | "-" => None,
        text => match text.parse() {
            Ok(tc) => Some(tc),
            Err(e) => return fail(e),
        },
    };
    let options = match search_options(globals) {
        Ok(options) => options,
        Err(e) => return fail(e),
    };
    let book = match globals.book.as_deref().map(|p| Book::open(Path::new(p))) {
        None => None,
        Some(Ok(book)) => Some(Arc::new(book)),
        Some(Err(e)) => return fail(e),
    };
    let settings = game::Settings {
        side: args.side,
        time_control,
        elo: args.elo,
        fen: args.fen,
        pgn_out: args.pgn_out,
        unicode: !args.ascii && game::terminal_takes_unicode(),
        hash_mb: args.hash.clamp(1, 65_536),
        threads: args.threads.clamp(1, 256),
        syzygy: options.syzygy,
        evaluator: options.evaluator,
        book,
    };
    let lines = game::read_lines(BufReader::new(std::io::stdin()));
    game::run(settings, &lines, &mut std::io::stdout());
    ExitCode::SUCCESS
}
