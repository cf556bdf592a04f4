//! The evaluation: its trace multiplied out equals `evaluate`, every term is the same for
//! both colours, and the endgame knowledge gives the results it promises.

mod common;

use ferrum::board::Board;
use ferrum::eval::{self, PARAMS, PawnTable, Phased, evaluate, evaluate_once, trace};
use ferrum::movegen::legal_moves;
use ferrum::rules::GameEnd;

/// Positions of every kind: the suites' positions, and those of seeded random games from
/// them (which reach odd material and bare kings).
fn positions() -> Vec<Board> {
    let mut boards = Vec::new();
    for path in [
        "epd/perft.epd",
        "epd/perft960.epd",
        "epd/bench.epd",
        "epd/wac-revised.epd",
    ] {
        for line in std::fs::read_to_string(path).unwrap().lines() {
            let fen = line.split(';').next().unwrap();
            let board = Board::from_fen(fen)
                .or_else(|_| ferrum::tools::epd::Epd::parse(line).map(|e| e.board))
                .unwrap();
            boards.push(board);
        }
    }
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let starts = boards.clone();
    for start in starts.iter().step_by(3) {
        let mut board = start.clone();
        for _ in 0..120 {
            let moves = legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            common::xorshift(&mut seed);
            // Prefer captures so that games reach the endings.
            let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
            let m = if !captures.is_empty() && !seed.is_multiple_of(3) {
                *captures[(seed >> 8) as usize % captures.len()]
            } else {
                moves[(seed >> 8) as usize % moves.len()]
            };
            board.make_move(m);
            boards.push(Board::from_fen(&board.to_fen()).unwrap());
        }
    }
    boards
}

#[test]
fn trace_times_weights_is_the_evaluation() {
    let mut pawns = PawnTable::new();
    let mut traced = 0;
    let boards = positions();
    assert!(boards.len() > 5_000, "{}", boards.len());
    for board in &boards {
        let white = evaluate(board, &mut pawns) * board.side_to_move().sign();
        assert_eq!(
            evaluate_once(board),
            evaluate(board, &mut pawns),
            "{}",
            board.to_fen()
        );
        let Some(t) = trace(board) else {
            continue;
        };
        traced += 1;
        let sum = t.counts.iter().fold(Phased::ZERO, |s, &(w, c)| {
            s + PARAMS[w as usize] * i32::from(c)
        });
        let blended = (sum.mg * t.phase + sum.eg * (24 - t.phase) * t.scale / 128) / 24;
        assert_eq!(blended, white, "{}", board.to_fen());
    }
    assert!(traced > 4_000);
    // Most positions of a game share their pawn structure with an earlier one.
    assert!(pawns.hits > 0);
}

#[test]
fn every_term_is_colour_symmetric() {
    for board in positions() {
        let mirrored = board.mirrored();
        let fen = board.to_fen();
        assert_eq!(evaluate_once(&board), evaluate_once(&mirrored), "{fen}");
        match (trace(&board), trace(&mirrored)) {
            (Some(a), Some(b)) => {
                let negated: Vec<(u16, i16)> = b.counts.iter().map(|&(w, c)| (w, -c)).collect();
                assert_eq!(a.counts, negated, "{fen}");
                assert_eq!((a.phase, a.scale), (b.phase, b.scale), "{fen}");
            }
            (None, None) => {}
            _ => panic!("one side's position is exact, the other's not: {fen}"),
        }
        for ((_, [w, b]), (_, [mw, mb])) in eval::families(&board)
            .into_iter()
            .zip(eval::families(&mirrored))
        {
            assert_eq!((w, b), (mb, mw), "{fen}");
        }
    }
}

fn white_view(fen: &str) -> i32 {
    let board = Board::from_fen(fen).unwrap();
    evaluate_once(&board) * board.side_to_move().sign()
}

#[test]
fn endgame_knowledge() {
    // Material that cannot mate is an exact draw, whatever else stands where.
    assert_eq!(white_view("8/8/4k3/8/8/3BK3/8/8 w - - 0 1"), 0);
    assert_eq!(white_view("8/8/4k3/8/8/3NK3/8/8 b - - 0 1"), 0);
    // Against a bare king, the mating side is far ahead, more so with the king at the edge
    // and, with bishop and knight, in a corner of the bishop's colour.
    let centre = white_view("8/8/8/4k3/8/8/8/KQ6 w - - 0 1");
    let edge = white_view("4k3/8/8/8/8/8/8/KQ6 w - - 0 1");
    assert!(centre > 5_000 && edge > centre, "{centre} {edge}");
    assert!(white_view("8/8/8/4K3/8/8/8/kr6 b - - 0 1") < -5_000);
    // Dark-squared bishop (c1): a1 and h8 are the corners to mate in.
    let right = white_view("7k/8/8/8/8/8/8/K1BN4 w - - 0 1");
    let wrong = white_view("k7/8/8/8/8/8/8/K1BN4 w - - 0 1");
    assert!(right > wrong, "{right} {wrong}");
    // A rook against a minor piece, or a minor piece alone, with no pawns: drawish.
    let krkb = white_view("8/8/4k3/8/3b4/8/8/R3K3 w - - 0 1");
    assert!(krkb.abs() < 100, "{krkb}");
    assert!(white_view("8/8/4k3/8/8/8/4p3/B3K3 w - - 0 1").abs() < 30);
}

/// Plays `fen` out with the engine on both sides at `nodes` a move, with the network or
/// the hand-crafted evaluation; the plies to mate.
fn plies_to_mate(fen: &str, nodes: u64, network: bool) -> Option<usize> {
    use ferrum::search::{Limits, SearchOptions, Session, Signals};
    let mut board = Board::from_fen(fen).unwrap();
    let options = SearchOptions {
        evaluator: if network {
            ferrum::evaluator::Evaluator::built_in()
        } else {
            ferrum::evaluator::Evaluator::hand_crafted()
        },
        ..SearchOptions::default()
    };
    let mut session = Session::new(16, options);
    for ply in 0..200 {
        if let Some((result, _)) = board.game_over() {
            return (result != "1/2-1/2").then_some(ply);
        }
        let found = session.run(
            &board,
            &Limits::nodes(nodes),
            &Signals::default(),
            &mut |_| {},
        );
        board.make_move(found.best?);
    }
    None
}

/// With either evaluation: the network sees few such positions, and both use the
/// evaluation's exact knowledge of them.
#[test]
fn mates_against_a_bare_king_are_won_in_play() {
    for ((fen, within), network) in [
        ("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", 40),
        ("8/8/8/4k3/8/8/8/KR6 w - - 0 1", 70),
        ("8/8/8/4k3/8/8/8/KBN5 w - - 0 1", 100),
        ("8/8/8/3k4/8/8/8/1b2K1n1 b - - 0 1", 100),
    ]
    .into_iter()
    .flat_map(|case| [(case, false), (case, true)])
    {
        let plies = plies_to_mate(fen, 20_000, network);
        assert!(
            plies.is_some_and(|p| p <= within),
            "{fen} (network {network}): {plies:?}"
        );
    }
}
