//! The `ferrum` binary: parses the command line and runs the chosen mode (`modes/`).

mod cli;
mod modes;

use clap::Parser;
use cli::{Cli, Mode};
use ferrum::comm::uci::Uci;
use ferrum::comm::xboard::XBoard;
use modes::{Globals, annotate, book, data, fitting, play, position, protocol, search};
use std::process::ExitCode;
use std::sync::Arc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The engine's flags may come before the mode or after one that searches or plays.
    let top = cli.engine.clone().with(Globals::default());
    let Some(mode) = cli.mode else {
        return protocol::detect(&top);
    };
    let given = top.given();
    let engine = |after: Globals| top.clone().with(after);
    match mode {
        Mode::Uci(after) => protocol::run(Arc::new(Uci), &engine(after)),
        Mode::Xboard(after) => protocol::run(Arc::new(XBoard::default()), &engine(after)),
        Mode::Eval(m) => position::eval(m.args, &engine(m.engine)),
        Mode::Bench(m) => search::bench(m.args, &engine(m.engine)),
        Mode::Test(m) => search::test(m.args, &engine(m.engine)),
        Mode::Probe(m) => search::probe(m.args, &engine(m.engine)),
        Mode::Datagen(m) => data::datagen(m.args, &engine(m.engine)),
        Mode::Play(m) => play::play(m.args, &engine(m.engine)),
        Mode::Annotate(m) => annotate::annotate(m.args, &engine(m.engine)),
        _ if !given.is_empty() => {
            let verb = if given.len() == 1 { "applies" } else { "apply" };
            eprintln!(
                "error: {} {verb} only to the modes that search or play (uci, xboard, eval, bench, test, probe, datagen, play, annotate) and to the console",
                given.join(", ")
            );
            ExitCode::from(2)
        }
        Mode::Perft(args) => position::perft(args),
        Mode::Divide(args) => position::divide(args),
        Mode::PerftSuite(args) => position::perft_suite(args),
        Mode::Data(command) => data::data(command),
        Mode::Train(args) => fitting::train(args),
        Mode::Calibrate(args) => fitting::calibrate(args),
        Mode::Tune(args) => fitting::tune(args),
        Mode::Makebook(args) => book::makebook(args),
        Mode::Eco(args) => book::eco(args),
    }
}
