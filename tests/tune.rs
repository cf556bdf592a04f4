//! The tuner: on positions labelled by known weights, it finds those weights again; the
//! weights file it writes is the one the engine compiles.

mod common;

use ferrum::board::Board;
use ferrum::eval::weights::{self, BISHOP_PAIR, DOUBLED, ISOLATED, ROOK_FILE, THREAT_BY_PAWN};
use ferrum::eval::{PARAMS, trace};
use ferrum::movegen::legal_moves;
use ferrum::tools::tune::{self, Adam, DataSet};

/// Positions from seeded random games out of the bench positions.
fn positions() -> Vec<Board> {
    let mut boards = Vec::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    for fen in std::fs::read_to_string("epd/bench.epd").unwrap().lines() {
        for _ in 0..4 {
            let mut board = Board::from_fen(fen).unwrap();
            for _ in 0..40 {
                let moves = legal_moves(&board);
                if moves.is_empty() {
                    break;
                }
                common::xorshift(&mut seed);
                board.make_move(moves[(seed >> 16) as usize % moves.len()]);
                boards.push(Board::from_fen(&board.to_fen()).unwrap());
            }
        }
    }
    boards
}

#[test]
fn recovers_the_weights_that_made_the_labels() {
    // The truth: the engine's weights with these set to known values.
    let chosen = [
        (DOUBLED.single(), [-20.0, -35.0]),
        (ISOLATED.at(0), [-8.0, -12.0]),
        (ISOLATED.at(1), [-18.0, -15.0]),
        (BISHOP_PAIR.single(), [30.0, 55.0]),
        (ROOK_FILE.at(0), [12.0, 6.0]),
        (ROOK_FILE.at(1), [35.0, 10.0]),
        (THREAT_BY_PAWN.at(1), [-45.0, -30.0]),
    ];
    let mut truth = tune::current_weights();
    for &(w, value) in &chosen {
        truth[w] = value;
    }
    let k = 1.0;
    let mut text = String::new();
    let mut labelled = 0;
    for board in positions() {
        let Some(t) = trace(&board) else { continue };
        let (mut mg, mut eg) = (0.0, 0.0);
        for &(w, c) in &t.counts {
            mg += truth[w as usize][0] * c as f64;
            eg += truth[w as usize][1] * c as f64;
        }
        let phase = t.phase as f64 / 24.0;
        let eval = mg * phase + eg * (1.0 - phase) * t.scale as f64 / 128.0;
        text.push_str(&format!(
            "{} | 0 | {:.6}\n",
            board.to_fen(),
            tune::sigmoid(k, eval)
        ));
        labelled += 1;
    }
    assert!(labelled > 5_000, "{labelled}");

    let data = DataSet::from_text(&text, 2);
    assert_eq!(data.len(), labelled);
    let groups: Vec<String> = [
        "DOUBLED",
        "ISOLATED",
        "BISHOP_PAIR",
        "ROOK_FILE",
        "THREAT_BY_PAWN",
    ]
    .map(String::from)
    .to_vec();
    let active = tune::active_weights(&groups).unwrap();
    // Start from the engine's weights with the chosen ones wrong.
    let mut found = tune::current_weights();
    for &(w, _) in &chosen {
        found[w] = [0.0, 0.0];
    }
    let before = data.loss(&found, k, 2);
    let mut adam = Adam::new(1.0, found.len());
    for _ in 0..600 {
        adam.step(&data, &mut found, &active, k, 2);
    }
    let after = data.loss(&found, k, 2);
    assert!(after < before / 10.0, "{before} -> {after}");
    for &(w, value) in &chosen {
        let name = weights::group_of(w).name;
        for phase in 0..2 {
            let error = (found[w][phase] - value[phase]).abs();
            assert!(
                error < 3.0,
                "{name}+{}: found {:?}, truth {value:?}",
                w - weights::group_of(w).start,
                found[w]
            );
        }
    }
    // Weights outside the chosen groups do not move.
    assert_eq!(
        found[weights::PSQT.at(100)][0],
        PARAMS[weights::PSQT.at(100)].mg as f64
    );
}

#[test]
fn data_lines_are_checked() {
    assert!(tune::parse_line("8/8/4k3/8/8/3NK3/8/8 w - - 0 1 | 12 | 0.5").is_ok());
    for bad in [
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1 | 12",
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1 | x | 0.5",
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1 | 12 | 2.0",
        "not a fen | 12 | 1.0",
    ] {
        assert!(tune::parse_line(bad).is_err(), "{bad}");
    }
    let data = DataSet::from_text("garbage\n4k3/8/8/8/8/8/8/4K3 w - - 0 1 | 0 | 0.5\n", 1);
    // Bare kings are an exact draw: no weight to learn from.
    assert_eq!((data.len(), data.skipped), (0, 2));
}

#[test]
fn the_weights_file_is_valid_rust_for_the_engine() {
    let text = tune::params_source(&tune::rounded(&tune::current_weights()), &["test".into()]);
    assert!(text.contains("pub const PARAMS: [Phased; COUNT] = ["));
    // One entry per weight.
    assert_eq!(text.matches("s(").count() - 1, weights::COUNT);
    // The engine's own file is what the tuner writes for the engine's weights (apart from
    // the header), so a fresh run starts from it exactly.
    let own = std::fs::read_to_string("src/eval/params.rs").unwrap();
    let body = |t: &str| t[t.find("\nuse ").unwrap()..].to_string();
    assert_eq!(body(&text), body(&own));
}

#[test]
fn weights_are_named_by_group_or_family() {
    let danger = tune::weights_named("king_danger").unwrap();
    assert_eq!(
        danger,
        (weights::KING_DANGER.at(0)..=weights::KING_DANGER.at(31)).collect::<Vec<_>>()
    );
    // The king-safety family is shelter, storm and danger: 3 tables of 32.
    let king = tune::weights_named("King-Safety").unwrap();
    assert_eq!(king.len(), 96);
    assert!(
        king.contains(&weights::KING_SHELTER.at(0)) && king.contains(&weights::KING_DANGER.at(31))
    );
    assert!(
        tune::weights_named("pawn structure")
            .unwrap()
            .contains(&DOUBLED.single())
    );
    let error = tune::weights_named("kingsafety").unwrap_err();
    assert!(
        error.contains("'kingsafety'") && error.contains("king-safety"),
        "{error}"
    );
    let active = tune::active_weights(&["mobility".to_string()]).unwrap();
    assert_eq!(active.iter().filter(|&&a| a).count(), 9 + 14 + 15 + 28);
}
