//! The `ferrum` binary: parses the command line and runs the chosen mode.

mod cli;

use clap::Parser;
use cli::{Cli, Mode};
use ferrum::board::{Board, START_FEN};
use ferrum::book::Book;
use ferrum::comm::CommIn;
use ferrum::comm::terminal;
use ferrum::comm::uci::Uci;
use ferrum::comm::xboard::XBoard;
use ferrum::engine::serve;
use ferrum::search::{Limits, Syzygy};
use ferrum::tablebase::Tablebases;
use ferrum::tools::{bench, datagen, epd_test, makebook, perft_suite, tune};
use ferrum::types::Color;
use std::io::{BufRead, BufReader, Cursor, Read};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let syzygy = cli.syzygy;
    // For the protocols, --syzygy and --book set their options before the GUI speaks.
    let setup: Vec<CommIn> = [("SyzygyPath", &syzygy), ("BookFile", &cli.book)]
        .into_iter()
        .filter_map(|(name, value)| {
            value.as_ref().map(|path| CommIn::SetOption {
                name: name.into(),
                value: Some(path.clone()),
            })
        })
        .collect();
    let Some(mode) = cli.mode else {
        detect_protocol(setup, syzygy.as_deref(), cli.book.as_deref());
        return ExitCode::SUCCESS;
    };
    match mode {
        Mode::Uci => {
            serve(
                Arc::new(Uci),
                BufReader::new(std::io::stdin()),
                std::io::stdout(),
                setup,
            );
            ExitCode::SUCCESS
        }
        Mode::Xboard => {
            serve(
                Arc::new(XBoard::default()),
                BufReader::new(std::io::stdin()),
                std::io::stdout(),
                setup,
            );
            ExitCode::SUCCESS
        }
        Mode::Perft { depth, fen } => with_board(fen, |board| {
            let start = Instant::now();
            let nodes = ferrum::movegen::perft(board, depth);
            let elapsed = start.elapsed();
            let nps = (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
            println!(
                "depth {depth} nodes {nodes} time {} nps {nps}",
                elapsed.as_millis()
            );
        }),
        Mode::Divide { depth, fen } => with_board(fen, |board| {
            let mut total = 0;
            for (m, nodes) in ferrum::movegen::divide(board, depth) {
                println!("{}: {nodes}", board.move_to_uci(m));
                total += nodes;
            }
            println!("\nNodes searched: {total}");
        }),
        Mode::Bench { depth } => {
            let Ok(syzygy) = open_syzygy(syzygy.as_deref()) else {
                return ExitCode::FAILURE;
            };
            bench::run_with(depth.clamp(1, 64), syzygy, &mut std::io::stdout());
            ExitCode::SUCCESS
        }
        Mode::Eval { fen } => {
            with_board(fen, |board| println!("{}", ferrum::eval::breakdown(board)))
        }
        Mode::Test {
            file,
            depth,
            time,
            nodes,
            multipv,
            early_exit,
            hash,
        } => {
            let text = match std::fs::read_to_string(&file) {
                Ok(text) => text,
                Err(e) => {
                    eprintln!("error: {}: {e}", file.display());
                    return ExitCode::FAILURE;
                }
            };
            let limits = match (depth, nodes, time) {
                (Some(d), _, _) => Limits::depth(d.clamp(1, 64)),
                (_, Some(n), _) => Limits::nodes(n),
                (_, _, t) => Limits::movetime((t.unwrap_or(1.0).clamp(0.001, 1e6) * 1000.0) as u64),
            };
            let Ok(syzygy) = open_syzygy(syzygy.as_deref()) else {
                return ExitCode::FAILURE;
            };
            let config = epd_test::TestConfig {
                limits,
                multipv,
                early_exit,
                hash_mb: hash,
                syzygy,
            };
            epd_test::run(&text, &config, &mut std::io::stdout());
            ExitCode::SUCCESS
        }
        Mode::Datagen {
            output,
            games,
            positions,
            nodes,
            depth,
            threads,
            seed,
            random_plies,
            openings,
            resign,
            draw,
            hash,
        } => {
            let openings = match openings.map(|path| {
                std::fs::read_to_string(&path)
                    .map_err(|e| e.to_string())
                    .and_then(|text| datagen::read_openings(&text))
                    .map_err(|e| format!("{}: {e}", path.display()))
            }) {
                None => Vec::new(),
                Some(Ok(openings)) => openings,
                Some(Err(e)) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let config = datagen::Config {
                output,
                games,
                positions,
                nodes: nodes.max(1),
                depth: depth.map(|d| d.clamp(1, 64)),
                threads: threads.clamp(1, 256),
                seed,
                random_plies,
                openings,
                resign_score: resign[0].max(1),
                resign_plies: resign[1].max(1) as u32,
                draw_score: draw[0].max(0),
                draw_plies: draw[1].max(1) as u32,
                draw_after: draw[2].max(0) as u32,
                hash_mb: hash.clamp(1, 65_536),
                ..datagen::Config::default()
            };
            match datagen::run(&config, &mut std::io::stderr()) {
                Ok(s) => {
                    println!(
                        "{} positions from {} games written to {}",
                        s.positions,
                        s.games,
                        config.output.display()
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Mode::Tune {
            data,
            output,
            epochs,
            rate,
            lambda,
            threads,
            only,
            without,
            k,
        } => {
            let config = tune::Config {
                data,
                output,
                epochs,
                rate,
                lambda: lambda.clamp(0.0, 1.0),
                threads: threads.clamp(1, 256),
                groups: only,
                without,
                k,
                command: std::env::args().collect::<Vec<_>>().join(" "),
            };
            match tune::run(&config, &mut std::io::stdout()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Mode::Probe { fen } => {
            let Some(path) = syzygy else {
                eprintln!("error: probe needs the tables: --syzygy DIRS");
                return ExitCode::FAILURE;
            };
            let tables = match Tablebases::open(&path) {
                Ok(tables) => {
                    if let Some(report) = tables.problem_report() {
                        eprintln!("warning: {report}");
                    }
                    tables
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let fens: Box<dyn Iterator<Item = String>> = match fen {
                Some(fen) => Box::new(std::iter::once(fen)),
                None => Box::new(std::io::stdin().lines().map_while(Result::ok)),
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
        Mode::Makebook {
            pgn,
            output,
            max_ply,
            min_games,
            only_white,
            only_black,
        } => {
            let settings = makebook::BookSettings {
                max_ply,
                min_games,
                only: match (only_white, only_black) {
                    (true, _) => Some(Color::White),
                    (_, true) => Some(Color::Black),
                    _ => None,
                },
            };
            match makebook::run(&pgn, &output, &settings) {
                Ok(s) => {
                    println!(
                        "{} games read ({} skipped): {} moves in {} positions written to {}",
                        s.games,
                        s.skipped,
                        s.entries,
                        s.positions,
                        output.display()
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Mode::Play {
            side,
            tc,
            elo,
            fen,
            pgn_out,
            ascii,
            hash,
            threads,
        } => {
            let time_control = match tc.as_str() {
                "none" | "-" => None,
                text => match text.parse() {
                    Ok(tc) => Some(tc),
                    Err(e) => {
                        eprintln!("error: {e}");
                        return ExitCode::FAILURE;
                    }
                },
            };
            let Ok(syzygy) = open_syzygy(syzygy.as_deref()) else {
                return ExitCode::FAILURE;
            };
            let book = match cli.book.as_deref().map(|p| Book::open(Path::new(p))) {
                None => None,
                Some(Ok(book)) => Some(Arc::new(book)),
                Some(Err(e)) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let settings = terminal::Settings {
                side,
                time_control,
                elo,
                fen,
                pgn_out,
                unicode: !ascii && terminal::terminal_takes_unicode(),
                hash_mb: hash.clamp(1, 65_536),
                threads: threads.clamp(1, 256),
                syzygy,
                book,
            };
            let lines = terminal::read_lines(BufReader::new(std::io::stdin()));
            terminal::run(settings, &lines, &mut std::io::stdout());
            ExitCode::SUCCESS
        }
        Mode::PerftSuite {
            file,
            max_nodes,
            max_depth,
            threads,
        } => {
            let limits = perft_suite::Limits {
                max_nodes: max_nodes.unwrap_or(u64::MAX),
                max_depth: max_depth.unwrap_or(u32::MAX),
            };
            match perft_suite::run_file(&file, limits, threads, &mut std::io::stdout()) {
                Ok(summary) if summary.failed == 0 => ExitCode::SUCCESS,
                Ok(_) => ExitCode::FAILURE,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// Tables for a console mode's searches, with the default probing options; an error is
/// printed.
fn open_syzygy(path: Option<&str>) -> Result<Option<Syzygy>, ()> {
    let Some(path) = path else { return Ok(None) };
    match Tablebases::open(path) {
        Ok(tables) => {
            if let Some(report) = tables.problem_report() {
                eprintln!("warning: {report}");
            }
            Ok(Some(Syzygy::new(Arc::new(tables))))
        }
        Err(e) => {
            eprintln!("error: {e}");
            Err(())
        }
    }
}

/// Serves whichever protocol the first command names: `uci` or `xboard`; anything else is
/// a console command for a person.
fn detect_protocol(setup: Vec<CommIn>, syzygy: Option<&str>, book: Option<&str>) {
    let mut input = BufReader::new(std::io::stdin());
    let mut first = String::new();
    while first.trim().is_empty() {
        first.clear();
        if input.read_line(&mut first).unwrap_or(0) == 0 {
            return;
        }
    }
    let replay = Cursor::new(first.clone().into_bytes()).chain(input);
    match first.split_whitespace().next() {
        Some("uci") => serve(Arc::new(Uci), replay, std::io::stdout(), setup),
        Some("xboard") => serve(
            Arc::new(XBoard::default()),
            replay,
            std::io::stdout(),
            setup,
        ),
        _ => ferrum::comm::console::run(replay, &mut std::io::stdout(), syzygy, book),
    }
}

/// Runs `f` on the position from `fen` (or the start position), reporting a bad FEN.
fn with_board(fen: Option<String>, f: impl FnOnce(&mut Board)) -> ExitCode {
    match Board::from_fen(fen.as_deref().unwrap_or(START_FEN)) {
        Ok(mut board) => {
            f(&mut board);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: invalid FEN: {e}");
            ExitCode::FAILURE
        }
    }
}
