//! The body of each mode of the command line, one module a mode (or a family of them);
//! `main.rs` only picks one. Each takes its arguments as `cli.rs` parsed them and returns
//! the process's exit code, reporting errors on standard error.

pub mod book;
pub mod data;
pub mod play;
pub mod position;
pub mod protocol;
pub mod search;

use ferrum::board::{Board, START_FEN};
use ferrum::nnue::{self, Network};
use ferrum::search::{SearchOptions, Syzygy};
use ferrum::tablebase::Tablebases;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

/// Options given before or after any mode.
#[derive(Clone, Debug, Default)]
pub struct Globals {
    /// `--syzygy DIRS`
    pub syzygy: Option<String>,
    /// `--book FILE`
    pub book: Option<String>,
    /// `--nnue` (or `--eval-file`): evaluate with the network.
    pub nnue: bool,
    /// `--eval-file FILE`
    pub eval_file: Option<String>,
    /// `--log FILE`: the protocol session's lines (the `Debug Log File` option).
    pub log: Option<String>,
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

/// The network `--nnue` and `--eval-file` ask for, if any.
fn network(globals: &Globals) -> Result<Option<Arc<Network>>, String> {
    match (&globals.eval_file, globals.nnue) {
        (Some(path), _) => nnue::load(Path::new(path)).map(|n| Some(Arc::new(n))),
        (None, true) => Ok(Some(nnue::embedded())),
        (None, false) => Ok(None),
    }
}

/// The search options of the console modes: tables and network as the globals say.
fn search_options(globals: &Globals) -> Result<SearchOptions, String> {
    Ok(SearchOptions {
        syzygy: open_syzygy(globals)?,
        network: network(globals)?,
        ..SearchOptions::default()
    })
}

/// The position `--fen` gives, or the start position.
fn board_from(fen: Option<&str>) -> Result<Board, String> {
    Board::from_fen(fen.unwrap_or(START_FEN)).map_err(|e| format!("invalid FEN: {e}"))
}
