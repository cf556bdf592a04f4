//! Random games from a fixed seed: after every make and unmake the board stays consistent
//! (bitboards, mailbox, incremental keys, phase and checkers), unmake restores it exactly,
//! the noisy and quiet generators split the legal moves, every move survives a trip through
//! text, and the evaluation of each position reached (with a pawn table filled along the
//! game) equals that of the same position set up afresh.

use ferrum::board::Board;
use ferrum::eval::{PawnTable, evaluate, evaluate_once};
use ferrum::movegen::{MoveList, legal_moves, noisy_moves, quiet_moves};
use ferrum::rules::Notation;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

fn check_generators(board: &Board) {
    let all = legal_moves(board);
    let mut noisy = MoveList::new();
    let mut quiet = MoveList::new();
    noisy_moves(board, &mut noisy);
    quiet_moves(board, &mut quiet);
    assert!(noisy.iter().all(|m| m.is_noisy()) && quiet.iter().all(|m| !m.is_noisy()));
    let mut split: Vec<_> = noisy.iter().chain(quiet.iter()).map(|m| m.bits()).collect();
    let mut whole: Vec<_> = all.iter().map(|m| m.bits()).collect();
    split.sort_unstable();
    whole.sort_unstable();
    assert_eq!(split, whole, "noisy + quiet != legal in {}", board.to_fen());
    for &m in all.iter() {
        assert_eq!(
            board.parse_move(&board.move_to_uci(m)),
            Ok(m),
            "{}",
            board.to_fen()
        );
    }
}

fn play_random_games(start_fens: &[&str], games: usize, seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pawns = PawnTable::new();
    let mut plies = 0;
    for game in 0..games {
        let mut board = Board::from_fen(start_fens[game % start_fens.len()]).unwrap();
        for _ in 0..200 {
            check_generators(&board);
            let moves = legal_moves(&board);
            if moves.is_empty() {
                break;
            }
            // Take every move once and back, then play one at random.
            let before = board.clone();
            for &m in moves.iter() {
                board.make_move(m);
                board
                    .check_consistency()
                    .unwrap_or_else(|e| panic!("after {m} from {}: {e}", before.to_fen()));
                board.unmake_move();
                assert_eq!(
                    board,
                    before,
                    "unmake of {m} did not restore {}",
                    before.to_fen()
                );
            }
            let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
            board.make_move(m);
            let fresh = Board::from_fen(&board.to_fen()).unwrap();
            assert_eq!(fresh.key(), board.key());
            assert_eq!(
                evaluate(&board, &mut pawns),
                evaluate_once(&fresh),
                "{}",
                board.to_fen()
            );
            plies += 1;
        }
    }
    plies
}

#[test]
fn standard_random_games() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ];
    assert!(play_random_games(&fens, 40, 7) >= 3000);
}

#[test]
fn chess960_random_games() {
    let text = std::fs::read_to_string("epd/perft960.epd").unwrap();
    let fens: Vec<&str> = text
        .lines()
        .take(60)
        .map(|l| l.split(';').next().unwrap().trim())
        .collect();
    assert!(play_random_games(&fens, 60, 11) >= 3000);
}

#[test]
fn repetition_is_seen_and_forgotten_after_a_pawn_move() {
    let mut board = Board::startpos();
    for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        assert!(!board.is_repetition());
        board.make_move(board.parse_move(m).unwrap());
    }
    assert_eq!(board.repetitions(), 1);
    for m in ["g1f3", "g8f6", "f3g1", "f6g8"] {
        board.make_move(board.parse_move(m).unwrap());
    }
    assert_eq!(board.repetitions(), 2);
    board.make_move(board.parse_move("e2e4").unwrap());
    assert!(!board.is_repetition());
}
