//! A line-based console for people: set up a position, search it, look at it, run the
//! tools. A search runs to its limit before the next command is read (the protocols are
//! for stopping and pondering); the table and histories last from one search to the next.

use super::game::{self, Side};
use crate::board::{Board, START_FEN};
use crate::book::Book;
use crate::comm::uci::Uci;
use crate::comm::{Comm, CommOut, pv_text};
use crate::eco::OpeningNames;
use crate::evaluator::Evaluator;
use crate::movegen::{divide, perft};
use crate::rules::Notation;
use crate::search::{Limits, Report, SearchOptions, Session, Signals, Syzygy};
use crate::tablebase::Tablebases;
use crate::tools::bench;
use crate::tools::epd_test::{self, TestConfig};
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::Arc;

const HELP: &str = "commands:
  position startpos|fen <FEN> [moves <m1> <m2> ...]   set up a position
  go [depth N] [movetime MS] [nodes N] [mate N]     search it (default depth 8)
  d                                                 show the board
  eval                                              evaluation with its parts
  perft N | divide N                                count the move tree
  bench [depth]                                     the fixed bench search (signature last)
  test FILE [depth N | time SEC | nodes N]          run an EPD test suite (bm/am)
  probe                                             tablebase value (WDL, DTZ) of the
                                                    position and each move (--syzygy)
  book                                              the opening book's moves here with
                                                    their weights (--book)
  play [white|black|random] [tc 5+3|none] [elo N]   play a game against Ferrum ('quit'
                                                    in the game comes back here)
  uci | xboard                                      (as the first command) speak that protocol
  quit";

/// Reads commands from `input` until `quit` or the end, answering on `out`. Searches
/// probe the Syzygy tables under `syzygy`, if given; `book` answers the `book` command.
pub fn run(
    input: impl BufRead + Send + 'static,
    out: &mut impl Write,
    syzygy: Option<&str>,
    book: Option<&str>,
    evaluator: Evaluator,
) {
    let book = book.and_then(|path| match Book::open(Path::new(path)) {
        Ok(book) => Some(Arc::new(book)),
        Err(e) => {
            let _ = writeln!(out, "error: {e}");
            None
        }
    });
    let syzygy = syzygy.and_then(|path| match Tablebases::open(path) {
        Ok(tables) => {
            if let Some(report) = tables.problem_report() {
                let _ = writeln!(out, "warning: {report}");
            }
            Some(Syzygy::new(Arc::new(tables)))
        }
        Err(e) => {
            let _ = writeln!(out, "error: {e}");
            None
        }
    });
    let options = SearchOptions {
        syzygy: syzygy.clone(),
        evaluator: evaluator.clone(),
        ..SearchOptions::default()
    };
    let mut board = Board::startpos();
    let hash_mb = std::env::var("FERRUM_HASH")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|mb| (1..=65_536).contains(mb))
        .unwrap_or(64);
    let mut session = Session::new(hash_mb, options.clone());
    let lines = game::read_lines(input);
    for line in lines.iter() {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let reply = match tokens.as_slice() {
            [] => continue,
            ["quit"] => break,
            ["help"] => HELP.to_string(),
            ["d"] => match OpeningNames::get().of_game(&board) {
                Some(opening) => format!("{board}\nOpening: {opening}"),
                None => board.to_string(),
            },
            ["eval"] => super::eval_text(&board, &evaluator),
            ["probe"] => match &syzygy {
                None => "error: no tables (start with --syzygy DIRS)".to_string(),
                Some(tb) => tb
                    .tables
                    .probe_root(&board)
                    .map_or("not in the tables".to_string(), |p| p.to_string()),
            },
            ["book"] => match &book {
                None => "error: no book (start with --book FILE)".to_string(),
                Some(book) => {
                    let moves: Vec<String> = book
                        .moves(&board)
                        .iter()
                        .map(|m| format!("{}:{}", board.move_to_uci(m.mv), m.weight))
                        .collect();
                    format!("book {}", moves.join(" ")).trim_end().to_string()
                }
            },
            ["play", rest @ ..] => match game_settings(rest) {
                Ok(mut settings) => {
                    settings.syzygy = syzygy.clone();
                    settings.evaluator = evaluator.clone();
                    settings.book = book.clone();
                    game::run(settings, &lines, out);
                    "back in the console ('help' lists the commands)".to_string()
                }
                Err(e) => format!("error: {e}"),
            },
            ["bench", rest @ ..] => match rest {
                [] => run_tool(|out| {
                    bench::run_with(bench::DEFAULT_DEPTH, options.clone(), out);
                }),
                [d] => match d.parse::<i32>() {
                    Ok(depth) => run_tool(|out| {
                        bench::run_with(depth.clamp(1, 64), options.clone(), out);
                    }),
                    Err(_) => format!("error: '{d}' is not a depth"),
                },
                _ => "error: bench takes at most a depth".to_string(),
            },
            ["test", file, rest @ ..] => match (std::fs::read_to_string(file), parse_go(rest)) {
                (Ok(text), Ok(limits)) => {
                    let config = TestConfig {
                        limits,
                        multipv: 1,
                        early_exit: None,
                        hash_mb: 64,
                        syzygy: syzygy.clone(),
                        evaluator: evaluator.clone(),
                        verbose: false,
                    };
                    run_tool(|out| {
                        epd_test::run(&text, &config, out);
                    })
                }
                (Err(e), _) => format!("error: {file}: {e}"),
                (_, Err(e)) => format!("error: {e}"),
            },
            ["position", rest @ ..] => match set_position(rest) {
                Ok(b) => {
                    board = b;
                    continue;
                }
                Err(e) => format!("error: {e}"),
            },
            ["go", rest @ ..] => match parse_go(rest) {
                Ok(limits) => {
                    let mut lines = Vec::new();
                    let mut report = |r: Report| {
                        if let Report::Line(info) = r {
                            let pv = pv_text(&board, &info.pv);
                            lines.extend(Uci.format(&CommOut::Info(info.with_pv(pv))));
                        }
                    };
                    let result = session.run(&board, &limits, &Signals::default(), &mut report);
                    let best = result
                        .best
                        .map_or("0000".to_string(), |m| board.move_to_uci(m));
                    lines.push(format!("bestmove {best}"));
                    lines.join("\n")
                }
                Err(e) => format!("error: {e}"),
            },
            [cmd @ ("perft" | "divide"), n] => match n.parse::<u32>() {
                Ok(depth) if *cmd == "perft" => format!("nodes {}", perft(&mut board, depth)),
                Ok(depth) => {
                    let rows = divide(&mut board, depth);
                    let total: u64 = rows.iter().map(|r| r.1).sum();
                    let rows: Vec<String> = rows
                        .iter()
                        .map(|(m, n)| format!("{}: {n}", board.move_to_uci(*m)))
                        .collect();
                    format!("{}\n\nNodes searched: {total}", rows.join("\n"))
                }
                Err(_) => format!("error: '{n}' is not a depth"),
            },
            _ => format!("error: unknown command '{line}' (try 'help')"),
        };
        let _ = writeln!(out, "{reply}");
        let _ = out.flush();
    }
}

/// `[white|black|random] [tc 5+3|none] [elo N]`, for a terminal game.
fn game_settings(tokens: &[&str]) -> Result<game::Settings, String> {
    let mut settings = game::Settings {
        side: Side::White,
        time_control: Some("5+3".parse()?),
        elo: None,
        fen: None,
        pgn_out: None,
        unicode: game::terminal_takes_unicode(),
        hash_mb: 64,
        threads: 1,
        syzygy: None,
        evaluator: Evaluator::default(),
        book: None,
    };
    let mut rest = tokens;
    loop {
        rest = match rest {
            [] => return Ok(settings),
            ["tc", "none", tail @ ..] => {
                settings.time_control = None;
                tail
            }
            ["tc", tc, tail @ ..] => {
                settings.time_control = Some(tc.parse()?);
                tail
            }
            ["elo", elo, tail @ ..] => {
                settings.elo = Some(elo.parse().map_err(|_| format!("'{elo}' is not an Elo"))?);
                tail
            }
            [side, tail @ ..] => {
                settings.side = side.parse()?;
                tail
            }
        }
    }
}

/// Runs a tool that writes text, and returns what it wrote.
fn run_tool(f: impl FnOnce(&mut Vec<u8>)) -> String {
    let mut out = Vec::new();
    f(&mut out);
    String::from_utf8_lossy(&out).trim_end().to_string()
}

/// `startpos|fen <FEN> [moves ...]`; the position is only replaced when all of it is valid.
fn set_position(tokens: &[&str]) -> Result<Board, String> {
    let moves_at = tokens
        .iter()
        .position(|&t| t == "moves")
        .unwrap_or(tokens.len());
    let mut board = match &tokens[..moves_at] {
        ["startpos"] => Board::from_fen(START_FEN).map_err(|e| e.to_string())?,
        ["fen", fen @ ..] => {
            Board::from_fen(&fen.join(" ")).map_err(|e| format!("invalid FEN: {e}"))?
        }
        _ => return Err("expected 'startpos' or 'fen <FEN>'".into()),
    };
    for text in tokens.iter().skip(moves_at + 1) {
        let m = board.parse_move(text).map_err(|e| e.to_string())?;
        board.make_move(m);
    }
    Ok(board)
}

/// `depth N`, `movetime MS`, `nodes N`, `mate N` in any combination.
fn parse_go(tokens: &[&str]) -> Result<Limits, String> {
    let mut limits = Limits::default();
    let mut rest = tokens;
    while let [name, value, tail @ ..] = rest {
        let number = |v: &str| {
            v.parse::<u64>()
                .map_err(|_| format!("'{v}' is not a number for {name}"))
        };
        match *name {
            "depth" => limits.depth = Some(number(value)?.min(1_000) as i32),
            "movetime" => limits.movetime_ms = Some(number(value)?),
            "nodes" => limits.nodes = Some(number(value)?),
            "mate" => limits.mate = Some(number(value)?.min(1_000) as u32),
            "time" => {
                let seconds: f64 = value
                    .parse()
                    .map_err(|_| format!("'{value}' is not a number of seconds"))?;
                limits.movetime_ms = Some((seconds.clamp(0.0, 1e6) * 1000.0) as u64);
            }
            _ => return Err(format!("unknown go parameter '{name}'")),
        }
        rest = tail;
    }
    if let [odd] = rest {
        return Err(format!("'{odd}' needs a value"));
    }
    if limits == Limits::default() {
        limits.depth = Some(8);
    }
    Ok(limits)
}
