//! FEN round trips over the suites, and one test per kind of malformed FEN.

use ferrum::board::{Board, FenError};
use ferrum::rules::Notation;
use ferrum::types::{Color, Square};

fn suite_fens(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect()
}

#[test]
fn suite_positions_round_trip() {
    for path in ["epd/perft.epd", "epd/perft960.epd"] {
        for fen in suite_fens(path) {
            let board = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(board.to_fen(), fen);
            assert_eq!(board.key(), board.compute_key());
            assert_eq!(Board::from_fen(&board.to_fen()).unwrap(), board);
        }
    }
}

#[test]
fn four_field_fen_gets_default_counters() {
    let board = Board::from_fen("4k3/8/8/8/8/8/8/4K3 b - -").unwrap();
    assert_eq!(board.to_fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    let board = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 12 0").unwrap();
    assert_eq!(board.fullmove_number(), 1);
}

#[test]
fn impossible_double_check_loads() {
    let board = Board::from_fen("B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1").unwrap();
    assert_eq!(board.checkers().count(), 2);
}

#[test]
fn castling_notations() {
    // X-FEN KQkq, Shredder-FEN and a mix all name the same rooks.
    let x = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    let shredder =
        Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1").unwrap();
    assert_eq!(x.castling(), shredder.castling());
    assert!(!x.is_chess960() && shredder.is_chess960());
    assert_eq!(shredder.to_fen().split(' ').nth(2), Some("HAha"));
    // X-FEN K means the outermost rook on the king's side, here on g1 with the king on b1.
    let b = Board::from_fen("1k4r1/8/8/8/8/8/8/1K3RR1 w Kk - 0 1").unwrap();
    assert_eq!(
        b.castling()
            .rook_square(Color::White, ferrum::types::Wing::King),
        "g1".parse().ok()
    );
    assert!(b.is_chess960());
    assert_eq!(b.to_fen().split(' ').nth(2), Some("Gg"));
    // A file letter picks an inner rook.
    let f = Board::from_fen("1k4r1/8/8/8/8/8/8/1K3RR1 w F - 0 1").unwrap();
    assert_eq!(f.to_fen().split(' ').nth(2), Some("F"));
}

#[test]
fn useless_en_passant_square_is_dropped() {
    let board =
        Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
    assert_eq!(board.en_passant(), None);
    let board =
        Board::from_fen("rnbqkb1r/ppppp1pp/7n/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3").unwrap();
    assert_eq!(board.en_passant(), "f6".parse::<Square>().ok());
}

fn err(fen: &str) -> FenError {
    match Board::from_fen(fen) {
        Ok(_) => panic!("accepted bad FEN {fen}"),
        Err(e) => {
            assert!(!e.to_string().is_empty());
            e
        }
    }
}

#[test]
fn wrong_field_count() {
    assert_eq!(err(""), FenError::FieldCount(0));
    assert_eq!(err("4k3/8/8/8/8/8/8/4K3 w -"), FenError::FieldCount(3));
    assert_eq!(err("4k3/8/8/8/8/8/8/4K3 w - - 0"), FenError::FieldCount(5));
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 w - - 0 1 x"),
        FenError::FieldCount(7)
    );
}

#[test]
fn unknown_piece_letter() {
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K2X w - - 0 1"),
        FenError::UnknownPiece('X')
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K02 w - - 0 1"),
        FenError::UnknownPiece('0')
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K2é w - - 0 1"),
        FenError::UnknownPiece('é')
    );
}

#[test]
fn rank_with_wrong_square_count() {
    assert_eq!(
        err("4k4/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::RankLength {
            rank: 8,
            squares: 9
        }
    );
    assert_eq!(
        err("4k3/8/8/7/8/8/8/4K3 w - - 0 1"),
        FenError::RankLength {
            rank: 5,
            squares: 7
        }
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3p w - - 0 1"),
        FenError::RankLength {
            rank: 1,
            squares: 9
        }
    );
    assert_eq!(err("4k3/8/8/8/8/8/8 w - - 0 1"), FenError::RankCount(7));
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3/8 w - - 0 1"),
        FenError::RankCount(9)
    );
}

#[test]
fn not_one_king_per_side() {
    assert_eq!(
        err("8/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::KingCount {
            color: Color::Black,
            count: 0
        }
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
        FenError::KingCount {
            color: Color::White,
            count: 2
        }
    );
}

#[test]
fn pawn_on_first_or_last_rank() {
    assert_eq!(
        err("4k2P/8/8/8/8/8/8/4K3 w - - 0 1"),
        FenError::PawnOnBackRank("h8".parse().unwrap())
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/p3K3 w - - 0 1"),
        FenError::PawnOnBackRank("a1".parse().unwrap())
    );
}

#[test]
fn bad_side_to_move() {
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 W - - 0 1"),
        FenError::SideToMove("W".into())
    );
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K3 white - - 0 1"),
        FenError::SideToMove("white".into())
    );
}

#[test]
fn castling_rights_not_matching_king_and_rooks() {
    for (fen, reason) in [
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "no white rook"),
        ("4k3/8/8/8/8/8/4K3/7R w K - 0 1", "not on its first rank"),
        ("r3k3/8/8/8/8/8/8/4K3 w k - 0 1", "no black rook"),
        ("4k3/8/8/8/8/8/8/R3K2R w KK - 0 1", "repeats"),
        ("4k3/8/8/8/8/8/8/R3K2R w KH - 0 1", "repeats"),
        ("4k3/8/8/8/8/8/8/R3K2R w E - 0 1", "king's own file"),
        ("4k3/8/8/8/8/8/8/R3K2R w G - 0 1", "no white rook"),
        (
            "4k3/8/8/8/8/8/8/R3K2R w KQx1 - 0 1",
            "not a castling letter",
        ),
    ] {
        match err(fen) {
            FenError::Castling { reason: r, .. } => assert!(r.contains(reason), "{fen}: {r}"),
            e => panic!("{fen}: {e:?}"),
        }
    }
}

#[test]
fn impossible_en_passant_square() {
    for (fen, reason) in [
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1", "rank 6"),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - e6 0 1", "no black pawn"),
        ("4k3/8/3n4/3pP3/8/8/8/4K3 w - d6 0 1", "must be empty"),
        ("4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 1", "must be empty"),
        ("4k3/8/8/8/3Pp3/8/8/4K3 b - d6 0 1", "rank 3"),
        ("4k3/8/8/8/3Pp3/8/8/4K3 b - z3 0 1", "not a square"),
    ] {
        match err(fen) {
            FenError::EnPassant { reason: r, .. } => assert!(r.contains(reason), "{fen}: {r}"),
            e => panic!("{fen}: {e:?}"),
        }
    }
    // The same pawns with a valid square load.
    assert!(Board::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").is_ok());
}

#[test]
fn bad_counters() {
    let base = "4k3/8/8/8/8/8/8/4K3 w - -";
    assert!(matches!(
        err(&format!("{base} x 1")),
        FenError::HalfmoveClock { .. }
    ));
    assert!(matches!(
        err(&format!("{base} -1 1")),
        FenError::HalfmoveClock { .. }
    ));
    assert!(matches!(
        err(&format!("{base} 1.5 1")),
        FenError::HalfmoveClock { .. }
    ));
    match err(&format!("{base} 99999999999999999999 1")) {
        FenError::HalfmoveClock { reason, .. } => assert!(reason.contains("out of range")),
        e => panic!("{e:?}"),
    }
    assert!(matches!(
        err(&format!("{base} 0 one")),
        FenError::FullmoveNumber { .. }
    ));
    assert!(matches!(
        err(&format!("{base} 0 65536")),
        FenError::FullmoveNumber { .. }
    ));
    assert!(Board::from_fen(&format!("{base} 65535 65535")).is_ok());
}

#[test]
fn side_not_to_move_in_check() {
    assert_eq!(
        err("4k3/8/8/8/8/8/8/4K2r b - - 0 1"),
        FenError::OpponentInCheck
    );
}

#[test]
fn garbage_never_panics() {
    for fen in [
        "/",
        "////////",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "k7/8/8/8/8/8/8/K7 w KQkq - 0 1",
        "kK6/8/8/8/8/8/8/8 w - - 0 1",
        "\u{0}",
        "🦀 w - - 0 1",
        "9/8/8/8/8/8/8/8 w - - 0 1",
    ] {
        assert!(Board::from_fen(fen).is_err(), "{fen}");
    }
}

#[test]
fn move_text_is_checked() {
    use ferrum::rules::MoveError;
    let board = Board::startpos();
    assert!(board.parse_move("e2e4").is_ok());
    for text in [
        "", "e2", "e2e", "e2e4qq", "e2eé", "é2e4", "e9e4", "e2e4k", "e2e4Q", "e2e4 ", "0000",
        "🦀🦀",
    ] {
        assert_eq!(
            board.parse_move(text),
            Err(MoveError::Malformed(text.into())),
            "{text}"
        );
    }
    for text in ["e2e5", "e1g1", "e7e5", "a1a8", "e2e4q"] {
        assert_eq!(
            board.parse_move(text),
            Err(MoveError::Illegal(text.into())),
            "{text}"
        );
    }
    // Castling: king-to-target and king-takes-rook both read; output follows the mode.
    let mut b = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let castle = b.parse_move("e1g1").unwrap();
    assert!(castle.is_castle());
    assert_eq!(b.parse_move("e1h1"), Ok(castle));
    assert_eq!(b.move_to_uci(castle), "e1g1");
    b.set_chess960(true);
    assert_eq!(b.move_to_uci(castle), "e1h1");
    assert_eq!(b.parse_move("e1c1"), b.parse_move("e1a1"));
    // Chess960: with the king on f1, f1g1 is an ordinary king move, castling is f1h1.
    let b = Board::from_fen("4k3/8/8/8/8/8/8/5K1R w H - 0 1").unwrap();
    assert!(!b.parse_move("f1g1").unwrap().is_castle());
    assert!(b.parse_move("f1h1").unwrap().is_castle());
}
