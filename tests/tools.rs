//! Tools for people through the binary: `ferrum test` with its principal variations and a
//! copy of the results in a file, and `ferrum eval` over a file of positions.

use std::path::PathBuf;
use std::process::{Command, Output};

fn ferrum(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .args(args)
        .output()
        .unwrap()
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("ferrum-tools-{}-{name}", std::process::id()))
}

#[test]
fn test_writes_its_results_to_a_file_and_shows_lines() {
    let suite = temp("suite.epd");
    std::fs::write(
        &suite,
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"back rank\";\n\
         this is not an EPD line\n",
    )
    .unwrap();
    let results = temp("results.txt");
    let run = ferrum(&[
        "test",
        suite.to_str().unwrap(),
        "--depth",
        "4",
        "--verbose",
        "-o",
        results.to_str().unwrap(),
    ]);
    assert!(run.status.success());
    let screen = String::from_utf8(run.stdout).unwrap();
    assert_eq!(std::fs::read_to_string(&results).unwrap(), screen);
    let lines: Vec<&str> = screen.lines().collect();
    assert!(lines[0].starts_with("back rank  found Ra8#"), "{screen}");
    assert_eq!(lines[1].trim(), "score mate in 1 pv 1. Ra8#");
    assert!(lines[2].starts_with("line 2: skipped"), "{screen}");
    assert!(
        lines[3].starts_with("solved 1 of 1 (1 skipped)"),
        "{screen}"
    );

    let unwritable = ferrum(&["test", suite.to_str().unwrap(), "-o", "/no/such/dir/r.txt"]);
    assert!(!unwritable.status.success());
    assert!(String::from_utf8_lossy(&unwritable.stderr).contains("cannot write /no/such/dir"));
    for file in [suite, results] {
        let _ = std::fs::remove_file(file);
    }
}

#[test]
fn eval_gives_a_line_of_scores_for_each_position_of_a_file() {
    let positions = temp("positions.epd");
    std::fs::write(
        &positions,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq -\n\
         r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - bm Bb5;\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq -\n",
    )
    .unwrap();
    let run = ferrum(&["eval", positions.to_str().unwrap()]);
    assert!(run.status.success());
    let out = String::from_utf8(run.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    let scores = |line: &str| -> Vec<i32> {
        line.split_whitespace()
            .take(2)
            .map(|w| w.parse().unwrap())
            .collect()
    };
    // The same position with the other side to move: the tempo changes sign with it in
    // the hand-crafted evaluation, so the two differ; both are White's view.
    assert_eq!(scores(lines[0]).len(), 2);
    assert_ne!(scores(lines[0])[1], scores(lines[1])[1]);
    assert!(lines[2].ends_with("bm Bb5;"));
    assert!(lines[3].starts_with("# line 4: skipped:"), "{out}");
    assert!(String::from_utf8_lossy(&run.stderr).contains("3 positions; lines skipped: 1"));

    let missing = ferrum(&["eval", "/no/such.epd"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read /no/such.epd"));
    let _ = std::fs::remove_file(positions);
}

/// The engine's flags go before any mode or after one that searches or plays; a mode that
/// neither searches nor plays refuses them rather than ignoring them, and does not list them.
#[test]
fn engine_flags_belong_to_the_modes_that_use_them() {
    let last_line = |args: &[&str]| {
        let out = ferrum(args);
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        text.lines().last().unwrap().to_string()
    };
    let nodes = |line: String| line.split_whitespace().next().unwrap().to_string();
    // The network is the default; `--hce` before or after the mode changes the search.
    let network = nodes(last_line(&["bench", "3"]));
    assert_eq!(nodes(last_line(&["--nnue", "bench", "3"])), network);
    // The choice after the mode counts.
    assert_eq!(
        nodes(last_line(&["--hce", "bench", "3", "--nnue"])),
        network
    );
    for args in [&["--hce", "bench", "3"][..], &["bench", "3", "--hce"]] {
        assert_ne!(
            nodes(last_line(args)),
            network,
            "{args:?}: still the network"
        );
    }
    let out = ferrum(&["--hce", "--book", "x.bin", "perft", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(error.contains("--book, --hce apply only to"), "{error}");
    let out = ferrum(&["--hce", "--eval-file", "x.nnue", "bench", "1"]);
    assert_eq!(out.status.code(), Some(2), "clap refuses the pair");
    let help = ferrum(&["train", "--help"]);
    assert!(!String::from_utf8_lossy(&help.stdout).contains("--book"));
}
