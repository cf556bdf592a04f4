//! The `ferrum` binary: parses the command line and runs the chosen mode (`modes/`).

mod cli;
mod modes;

use clap::Parser;
use cli::{Cli, Mode};
use ferrum::comm::uci::Uci;
use ferrum::comm::xboard::XBoard;
use modes::{Globals, book, data, play, position, protocol, search};
use std::process::ExitCode;
use std::sync::Arc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let globals = Globals {
        syzygy: cli.syzygy,
        book: cli.book,
        nnue: cli.nnue || cli.eval_file.is_some(),
        eval_file: cli.eval_file,
        log: cli.log,
    };
    let Some(mode) = cli.mode else {
        return protocol::detect(&globals);
    };
    match mode {
        Mode::Uci => protocol::run(Arc::new(Uci), &globals),
        Mode::Xboard => protocol::run(Arc::new(XBoard::default()), &globals),
        Mode::Perft(args) => position::perft(args),
        Mode::Divide(args) => position::divide(args),
        Mode::PerftSuite(args) => position::perft_suite(args),
        Mode::Eval(args) => position::eval(args, &globals),
        Mode::Bench(args) => search::bench(args, &globals),
        Mode::Test(args) => search::test(args, &globals),
        Mode::Probe(args) => search::probe(args, &globals),
        Mode::Datagen(args) => data::datagen(args, &globals),
        Mode::Data(command) => data::data(command),
        Mode::Train(args) => data::train(args),
        Mode::Tune(args) => data::tune(args),
        Mode::Makebook(args) => book::makebook(args),
        Mode::Eco(args) => book::eco(args),
        Mode::Play(args) => play::play(args, &globals),
    }
}
