//! One source of defaults: `ferrum bench` with no flags, `tools::bench::run`, the session
//! the criterion benchmarks search with (`tools::bench::session`) and a UCI session with
//! default options evaluate with the same evaluator and search alike: the same nodes at
//! the same depth from the same positions.

use ferrum::board::Board;
use ferrum::search::{Limits, SearchOptions, Signals};
use ferrum::tools::bench;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const DEPTH: i32 = 7;
const POSITIONS: usize = 4;

/// The nodes of each position in bench's output lines (`position  1: ... nodes N  fen`).
fn bench_nodes(text: &str) -> Vec<u64> {
    text.lines()
        .filter(|l| l.starts_with("position"))
        .take(POSITIONS)
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words.iter().position(|&w| w == "nodes").expect(l);
            words[at + 1].parse().expect(l)
        })
        .collect()
}

/// A UCI session with default options: each position after `ucinewgame`, its last
/// report's nodes.
fn uci_nodes(fens: &[&str]) -> Vec<u64> {
    let mut engine = Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = engine.stdin.take().unwrap();
    let mut output = BufReader::new(engine.stdout.take().unwrap()).lines();
    let mut nodes = Vec::new();
    writeln!(input, "uci").unwrap();
    for fen in fens {
        writeln!(input, "ucinewgame\nposition fen {fen}\ngo depth {DEPTH}").unwrap();
        let mut last = 0;
        for line in output.by_ref() {
            let line = line.unwrap();
            if line.starts_with("bestmove") {
                break;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            if let Some(at) = words.iter().position(|&w| w == "nodes") {
                last = words[at + 1].parse().unwrap();
            }
        }
        nodes.push(last);
    }
    writeln!(input, "quit").unwrap();
    engine.wait().unwrap();
    nodes
}

#[test]
fn bench_benchmarks_and_a_gui_search_alike() {
    let fens: Vec<&str> = bench::POSITIONS.lines().take(POSITIONS).collect();

    let cli = Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .args(["bench", &DEPTH.to_string()])
        .output()
        .unwrap();
    let cli = bench_nodes(&String::from_utf8_lossy(&cli.stdout));

    let mut text = Vec::new();
    bench::run(DEPTH, &mut text);
    let library = bench_nodes(&String::from_utf8_lossy(&text));

    let mut session = bench::session(SearchOptions::default());
    let criterion: Vec<u64> = fens
        .iter()
        .map(|fen| {
            session.clear();
            let board = Board::from_fen(fen).unwrap();
            let limits = Limits::depth(DEPTH);
            session
                .run(&board, &limits, &Signals::default(), &mut |_| {})
                .nodes
        })
        .collect();

    let gui = uci_nodes(&fens);
    assert_eq!(cli.len(), POSITIONS);
    assert_eq!(cli, library, "ferrum bench and tools::bench::run");
    assert_eq!(
        cli, criterion,
        "ferrum bench and the criterion benchmarks' session"
    );
    assert_eq!(
        cli, gui,
        "ferrum bench and a UCI session with default options"
    );
}
