//! Every position of both perft suites, each to the deepest listed depth with at most about
//! two million leaves (`make perft-suite` checks every depth in release mode).

use ferrum::board::Board;
use ferrum::movegen::perft;
use ferrum::tools::perft_suite::{self, PerftCase};

const LEAF_BUDGET: u64 = 2_000_000;

fn check_suite(path: &str, expected_positions: usize) {
    let text = std::fs::read_to_string(path).expect("suite file is in the repository");
    let cases = perft_suite::parse(&text).expect("suite parses");
    assert_eq!(cases.len(), expected_positions);
    let failures: Vec<String> = cases.iter().filter_map(check_deepest_affordable).collect();
    assert!(
        failures.is_empty(),
        "{} wrong counts:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The deepest count within the budget; the shallowest one if the line lists none (the
/// suite's extra en-passant line only gives D5).
fn check_deepest_affordable(case: &PerftCase) -> Option<String> {
    let affordable = case
        .counts
        .iter()
        .filter(|&&(_, nodes)| nodes <= LEAF_BUDGET);
    let &(depth, expected) = affordable
        .max_by_key(|&&(depth, _)| depth)
        .or_else(|| case.counts.iter().min_by_key(|&&(depth, _)| depth))
        .unwrap_or_else(|| panic!("line {}: no counts", case.line));
    let mut board = Board::from_fen(&case.fen).unwrap();
    let found = perft(&mut board, depth);
    (found != expected).then(|| {
        format!(
            "line {} D{depth}: {found} != {expected}: {}",
            case.line, case.fen
        )
    })
}

#[test]
fn standard_suite() {
    check_suite("epd/perft.epd", 132);
}

#[test]
fn chess960_suite() {
    check_suite("epd/perft960.epd", 960);
}

#[test]
fn suite_runner_reports_a_wrong_count() {
    let cases = perft_suite::parse(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n",
    )
    .unwrap();
    let limits = perft_suite::Limits {
        max_nodes: u64::MAX,
        max_depth: u32::MAX,
    };
    let mut out = Vec::new();
    let summary = perft_suite::run(&cases, limits, 1, &mut out);
    assert_eq!(
        (summary.checked, summary.failed, summary.nodes),
        (2, 1, 420)
    );
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("FAILED line    1 D2"), "{text}");
}

#[test]
fn suite_parser_names_bad_lines() {
    let err = perft_suite::parse("8/8/8/8/8/8/8/8 w - - 0 1 ;D1 0\n").unwrap_err();
    assert!(err.starts_with("line 1: invalid FEN"), "{err}");
    let err = perft_suite::parse("# comment\n4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 x\n").unwrap_err();
    assert!(err.starts_with("line 2:"), "{err}");
}
