//! The body of each mode of the command line, one module a mode (or a family of them);
//! `main.rs` only picks one. Each takes its arguments as `cli.rs` parsed them and returns
//! the process's exit code, reporting errors on standard error.

pub mod annotate;
pub mod book;
pub mod data;
pub mod fitting;
pub mod play;
pub mod position;
pub mod protocol;
pub mod search;

use clap::Args;
use ferrum::board::{Board, START_FEN};
use ferrum::evaluator::Evaluator;
use ferrum::search::{SearchOptions, Syzygy};
use ferrum::tablebase::Tablebases;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

/// The engine's options on the command line: before any mode (for the protocols and the
/// console) or after one of the modes that search or play.
#[derive(Args, Clone, Debug, Default)]
pub struct Globals {
    /// Directories of Syzygy tablebases, separated by ':' (';' on Windows): probed by the
    /// searches, as the SyzygyPath option
    #[arg(long)]
    pub syzygy: Option<String>,
    /// A Polyglot opening book: played from in UCI and XBoard games (the BookFile option),
    /// listed by the console's `book` command
    #[arg(long)]
    pub book: Option<String>,
    /// Evaluate with the network, the one built in or --eval-file's (the default; UseNNUE
    /// true)
    #[arg(long, conflicts_with = "hce")]
    pub nnue: bool,
    /// Evaluate with the hand-crafted evaluation rather than the network (UseNNUE false)
    #[arg(long, conflicts_with = "eval_file")]
    pub hce: bool,
    /// A network file to evaluate with: the EvalFile option
    #[arg(long)]
    pub eval_file: Option<String>,
    /// Append every line of a UCI or XBoard session, in and out, with its time, to this
    /// file: the `Debug Log File` option
    #[arg(long)]
    pub log: Option<String>,
}

impl Globals {
    /// These, with `after`'s (given after the mode) where both give one.
    pub fn with(self, after: Globals) -> Globals {
        // The evaluation asked for last counts: `--hce` after the mode drops an earlier
        // `--eval-file`, and `--nnue` or `--eval-file` after it an earlier `--hce`.
        let hce = after.hce || (self.hce && !after.nnue && after.eval_file.is_none());
        Globals {
            syzygy: after.syzygy.or(self.syzygy),
            book: after.book.or(self.book),
            nnue: after.nnue || self.nnue,
            hce,
            eval_file: if hce {
                None
            } else {
                after.eval_file.or(self.eval_file)
            },
            log: after.log.or(self.log),
        }
    }

    /// The flags given, as they were written (for the error of a mode that takes none).
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("--syzygy", self.syzygy.is_some()),
            ("--book", self.book.is_some()),
            ("--nnue", self.nnue),
            ("--hce", self.hce),
            ("--eval-file", self.eval_file.is_some()),
            ("--log", self.log.is_some()),
        ]
        .into_iter()
        .filter_map(|(flag, given)| given.then_some(flag))
        .collect()
    }
}

/// Reports `message` as an error and fails.
fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::FAILURE
}

/// Success, or the error reported.
fn finish(result: Result<(), String>) -> ExitCode {
    result.map_or_else(fail, |()| ExitCode::SUCCESS)
}

/// The Syzygy tables under `--syzygy`, with the default probing options; problems with
/// some of the tables are a warning.
fn open_syzygy(globals: &Globals) -> Result<Option<Syzygy>, String> {
    let Some(path) = globals.syzygy.as_deref() else {
        return Ok(None);
    };
    let tables = Tablebases::open(path)?;
    if let Some(report) = tables.problem_report() {
        eprintln!("warning: {report}");
    }
    Ok(Some(Syzygy::new(Arc::new(tables))))
}

/// What to evaluate with: `--eval-file`'s network, else the one built in; the
/// hand-crafted evaluation with `--hce`.
fn evaluator(globals: &Globals) -> Result<Evaluator, String> {
    match (&globals.eval_file, globals.hce) {
        (_, true) => Ok(Evaluator::hand_crafted()),
        (Some(path), false) => Evaluator::from_file(Path::new(path)),
        (None, false) => Ok(Evaluator::built_in()),
    }
}

/// The search options of the console modes: tables and network as the globals say.
fn search_options(globals: &Globals) -> Result<SearchOptions, String> {
    Ok(SearchOptions {
        syzygy: open_syzygy(globals)?,
        evaluator: evaluator(globals)?,
        ..SearchOptions::default()
    })
}

/// The position `--fen` gives, or the start position.
fn board_from(fen: Option<&str>) -> Result<Board, String> {
    Board::from_fen(fen.unwrap_or(START_FEN)).map_err(|e| format!("invalid FEN: {e}"))
}
