//! The console for people: the binary started without a mode, first line not a protocol.

mod common;

use common::Session;

#[test]
fn console_commands() {
    let mut s = Session::start(&[]);
    s.send("help");
    let help = s.until(|l| l.trim_start().starts_with("quit"));
    for command in ["position", "go", "eval", "perft", "bench", "test"] {
        assert!(
            help.iter().any(|l| l.trim_start().starts_with(command)),
            "{command}: {help:?}"
        );
    }
    s.send("position startpos moves e2e4 e7e5");
    s.send("d");
    let board = s.until(|l| l.starts_with("Opening:"));
    assert_eq!(board.last().unwrap(), "Opening: C20 King's Pawn Game");
    assert!(
        board
            .iter()
            .any(|l| l == "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"),
        "{board:?}"
    );
    s.send("position startpos moves g1f3 e7e5 e2e4");
    s.send("d");
    // Reached through the Zukertort, named as the opening it transposed into.
    assert_eq!(
        s.until(|l| l.starts_with("Opening:")).last().unwrap(),
        "Opening: C40 King's Knight Opening"
    );
    s.send("position startpos moves e2e4 e7e5");
    s.send("perft 3");
    assert_eq!(s.until(|_| true), vec!["nodes 24825"]);
    s.send("eval");
    assert!(
        s.until(|l| l.starts_with("evaluation"))
            .last()
            .unwrap()
            .contains("cp for the side to move")
    );
    s.send("go depth 5");
    assert!(s.until(|l| l.starts_with("bestmove")).len() >= 2);
    s.send("bench 3");
    let bench = s.until(|l| l.ends_with(" nps"));
    assert_eq!(bench.len(), 52);
    assert!(bench[50].starts_with("pawn table: "), "{bench:?}");
    // The same searches as `ferrum bench 3`, with the same evaluation.
    let mode = std::process::Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .args(["bench", "3"])
        .output()
        .unwrap();
    let nodes = |line: &str| line.split(' ').next().unwrap().to_string();
    let mode = String::from_utf8_lossy(&mode.stdout).to_string();
    assert_eq!(nodes(&bench[51]), nodes(mode.lines().last().unwrap()));
    s.send("test epd/bk.epd depth 2");
    assert!(
        s.until(|l| l.starts_with("solved"))
            .last()
            .unwrap()
            .starts_with("solved ")
    );
    s.send("position startpos moves e2e5");
    assert!(s.until(|_| true)[0].starts_with("error:"));
    s.send("frobnicate");
    assert!(s.until(|_| true)[0].starts_with("error: unknown command"));
    s.send("quit");
    assert!(s.exits_within(std::time::Duration::from_secs(2)));
}

/// `--syzygy` for the console: `probe` prints the tables' values, and without tables it
/// says what is missing.
#[test]
fn console_probe() {
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
    let mut s = Session::start(&["--syzygy", tables]);
    s.send("position fen 8/8/8/8/8/8/2Q5/k1K5 w - - 0 1");
    s.send("probe");
    let line = s.until(|_| true).pop().unwrap();
    assert!(line.starts_with("wdl 2 dtz 1 moves "), "{line}");
    assert!(
        line.contains(" c2b2:2:1") && line.contains(" c1d1:0:0"),
        "{line}"
    );
    s.send("position startpos");
    s.send("probe");
    assert_eq!(s.until(|_| true), vec!["not in the tables"]);
    let mut s = Session::start(&[]);
    s.send("help");
    s.send("probe");
    let line = s.until(|l| l.starts_with("error")).pop().unwrap();
    assert!(line.contains("--syzygy"), "{line}");
}
