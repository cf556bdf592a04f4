//! The modes that search positions: `bench`, `test` (EPD suites) and `probe` (the
//! tablebases' answer).

use super::{Globals, fail, search_options};
use clap::Args;
use ferrum::board::Board;
use ferrum::search::Limits;
use ferrum::tablebase::Tablebases;
use ferrum::tools::{bench, epd_test};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// `ferrum bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Depth of each search
    #[arg(default_value_t = bench::DEFAULT_DEPTH)]
    depth: i32,
}

/// The fixed searches whose node count is the signature.
pub fn bench(args: BenchArgs, globals: &Globals) -> ExitCode {
    match search_options(globals) {
        Ok(options) => {
            bench::run_with(args.depth.clamp(1, 64), options, &mut std::io::stdout());
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

/// `ferrum test`.
#[derive(Args, Debug)]
pub struct TestArgs {
    /// EPD file, e.g. epd/wac-revised.epd
    file: PathBuf,
    /// Search each position to this depth
    #[arg(long, group = "limit")]
    depth: Option<i32>,
    /// Seconds per position (the default is 1)
    #[arg(long, group = "limit")]
    time: Option<f64>,
    /// Nodes per position
    #[arg(long, group = "limit")]
    nodes: Option<u64>,
    /// Count a position solved when a best move leads any of the first K lines
    #[arg(long, default_value_t = 1)]
    multipv: usize,
    /// Stop a position once the right move has been best for K iterations
    #[arg(long)]
    early_exit: Option<u32>,
    /// Transposition table size in MiB
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Print each position's score and principal variation
    #[arg(short, long)]
    verbose: bool,
    /// Write the results to this file as well
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// Runs an EPD suite and counts the positions solved.
pub fn test(args: TestArgs, globals: &Globals) -> ExitCode {
    let text = match std::fs::read_to_string(&args.file) {
        Ok(text) => text,
        Err(e) => return fail(format!("{}: {e}", args.file.display())),
    };
    let limits = match (args.depth, args.nodes, args.time) {
        (Some(d), _, _) => Limits::depth(d.clamp(1, 64)),
        (_, Some(n), _) => Limits::nodes(n),
        (_, _, t) => Limits::movetime((t.unwrap_or(1.0).clamp(0.001, 1e6) * 1000.0) as u64),
    };
    let options = match search_options(globals) {
        Ok(options) => options,
        Err(e) => return fail(e),
    };
    let config = epd_test::TestConfig {
        limits,
        multipv: args.multipv,
        early_exit: args.early_exit,
        hash_mb: args.hash.clamp(1, 65_536),
        syzygy: options.syzygy,
        evaluator: options.evaluator,
        verbose: args.verbose,
    };
    let copy = match args.output.as_ref().map(std::fs::File::create).transpose() {
        Ok(copy) => copy,
        Err(e) => {
            let path = args.output.unwrap_or_default();
            return fail(format!("cannot write {}: {e}", path.display()));
        }
    };
    let mut out = Tee {
        screen: std::io::stdout(),
        copy,
        failed: None,
    };
    epd_test::run(&text, &config, &mut out);
    match out.failed {
        None => ExitCode::SUCCESS,
        Some(e) => fail(format!("cannot write the results to the file: {e}")),
    }
}

/// Standard output, and a file beside it when one is given. A failure of the file stops
/// the copy and is kept for the end; the run goes on on the screen.
struct Tee {
    screen: std::io::Stdout,
    copy: Option<std::fs::File>,
    failed: Option<std::io::Error>,
}

impl Write for Tee {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if let Some(copy) = &mut self.copy
            && let Err(e) = copy.write_all(bytes)
        {
            self.copy = None;
            self.failed = Some(e);
        }
        self.screen.write_all(bytes)?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.screen.flush()
    }
}

/// `ferrum probe`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// Position; without one, FENs are read from standard input, one per line
    #[arg(long)]
    fen: Option<String>,
}

/// The tablebases' value of positions and their moves.
pub fn probe(args: ProbeArgs, globals: &Globals) -> ExitCode {
    let Some(path) = globals.syzygy.as_deref() else {
        return fail("probe needs the tables: --syzygy DIRS");
    };
    let tables = match Tablebases::open(path) {
        Ok(tables) => tables,
        Err(e) => return fail(e),
    };
    if let Some(report) = tables.problem_report() {
        eprintln!("warning: {report}");
    }
    let fens: Box<dyn Iterator<Item = String>> = match args.fen {
        Some(fen) => Box::new(std::iter::once(fen)),
        None => Box::new(std::io::stdin().lock().lines().map_while(Result::ok)),
    };
    for fen in fens {
        match Board::from_fen(fen.trim()) {
            Ok(board) => match tables.probe_root(&board) {
                Some(probe) => println!("{probe}"),
                None => println!("not in the tables"),
            },
            Err(e) => println!("error: {e}"),
        }
    }
    ExitCode::SUCCESS
}
