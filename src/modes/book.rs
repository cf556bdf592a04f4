//! The openings: `ferrum makebook`, a Polyglot opening book from the games of a PGN file,
//! and `ferrum eco`, the names of openings.

use super::{board_from, fail, finish};
use clap::Args;
use ferrum::eco::OpeningNames;
use ferrum::rules::Notation;
use ferrum::tools::{eco, makebook};
use ferrum::types::Color;
use std::path::PathBuf;
use std::process::ExitCode;

/// `ferrum makebook`.
#[derive(Args, Debug)]
pub struct MakebookArgs {
    /// PGN files of games; with several, the first is an annotated repertoire whose every
    /// line and variation goes into the book, weighted by its annotations
    #[arg(required = true)]
    pgn: Vec<PathBuf>,
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
    /// Read a single file as an annotated repertoire too
    #[arg(long)]
    repertoire: bool,
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
        repertoire: args.repertoire,
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
        if s.bad_annotations > 0 {
            println!(
                "{} annotations not understood were ignored",
                s.bad_annotations
            );
        }
    }))
}

/// `ferrum eco`.
#[derive(Args, Debug)]
#[group(id = "what", required = true, multiple = true)]
pub struct EcoArgs {
    /// PGN file whose games are written to standard output with ECO and Opening tags
    /// (`-` for standard input)
    #[arg(conflicts_with_all = ["fen", "moves"])]
    pgn: Option<PathBuf>,
    /// Name this position (with --moves: the position they start from)
    #[arg(long)]
    fen: Option<String>,
    /// Name the game of these moves (SAN or coordinates, space-separated): its last named
    /// position
    #[arg(long)]
    moves: Option<String>,
}

/// Names the games of a PGN file, or one position or line.
pub fn eco(args: EcoArgs) -> ExitCode {
    let Some(pgn) = args.pgn else {
        return finish(name_line(args.fen.as_deref(), args.moves.as_deref()));
    };
    let named = if pgn.as_os_str() == "-" {
        eco::name_games(
            std::io::stdin().lock(),
            &mut std::io::stdout().lock(),
            &mut std::io::stderr(),
        )
    } else {
        match std::fs::File::open(&pgn) {
            Ok(file) => eco::name_games(
                std::io::BufReader::new(file),
                &mut std::io::BufWriter::new(std::io::stdout().lock()),
                &mut std::io::stderr(),
            ),
            Err(e) => return fail(format!("cannot open {}: {e}", pgn.display())),
        }
    };
    finish(named.map(|s| eprintln!("eco: {} games, {} named", s.games, s.named)))
}

/// Prints the name of the position `fen` (or the start) and `moves` lead to, walking back
/// through the moves to the last named position.
fn name_line(fen: Option<&str>, moves: Option<&str>) -> Result<(), String> {
    let mut board = board_from(fen)?;
    for text in moves.unwrap_or_default().split_whitespace() {
        let m = board
            .parse_any_move(text)
            .map_err(|e| format!("move {text}: {e}"))?;
        board.make_move(m);
    }
    match OpeningNames::get().of_game(&board) {
        Some(opening) => println!("{opening}"),
        None => println!("no named opening"),
    }
    Ok(())
}
