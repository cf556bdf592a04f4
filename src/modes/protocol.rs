//! `ferrum uci`, `ferrum xboard`, and plain `ferrum`, which picks the protocol (or the
//! console) by the first line it reads.

use super::Globals;
use ferrum::comm::uci::Uci;
use ferrum::comm::xboard::XBoard;
use ferrum::comm::{Comm, CommIn};
use ferrum::engine::serve;
use std::io::{BufRead, BufReader, Cursor, Read};
use std::process::ExitCode;
use std::sync::Arc;

/// Serves `comm` on standard input and output.
pub fn run(comm: Arc<dyn Comm>, globals: &Globals) -> ExitCode {
    let input = BufReader::new(std::io::stdin());
    serve(comm, input, std::io::stdout(), setup(globals));
    ExitCode::SUCCESS
}

/// Serves whichever protocol the first line names: `uci` or `xboard`; anything else is a
/// console command for a person.
pub fn detect(globals: &Globals) -> ExitCode {
    let mut input = BufReader::new(std::io::stdin());
    let mut first = String::new();
    while first.trim().is_empty() {
        first.clear();
        if input.read_line(&mut first).unwrap_or(0) == 0 {
            return ExitCode::SUCCESS;
        }
    }
    let replay = Cursor::new(first.clone().into_bytes()).chain(input);
    match first.split_whitespace().next() {
        Some("uci") => serve(Arc::new(Uci), replay, std::io::stdout(), setup(globals)),
        Some("xboard") => serve(
            Arc::new(XBoard::default()),
            replay,
            std::io::stdout(),
            setup(globals),
        ),
        _ => match super::evaluator(globals) {
            Ok(evaluator) => ferrum::ui::console::run(
                replay,
                &mut std::io::stdout(),
                globals.syzygy.as_deref(),
                globals.book.as_deref(),
                evaluator,
            ),
            Err(e) => return super::fail(e),
        },
    }
    ExitCode::SUCCESS
}

/// `--log`, `--syzygy`, `--book`, `--hce` and `--eval-file` as the options they set,
/// before the GUI speaks (`--nnue` is the default).
fn setup(globals: &Globals) -> Vec<CommIn> {
    let nnue = globals.hce.then(|| "false".to_string());
    [
        ("Debug Log File", &globals.log),
        ("SyzygyPath", &globals.syzygy),
        ("BookFile", &globals.book),
        ("EvalFile", &globals.eval_file),
        ("UseNNUE", &nnue),
    ]
    .into_iter()
    .filter_map(|(name, value)| {
        value.as_ref().map(|path| CommIn::SetOption {
            name: name.into(),
            value: Some(path.clone()),
        })
    })
    .collect()
}
