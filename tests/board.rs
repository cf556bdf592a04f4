//! Board queries checked against the legal moves, which the board itself cannot generate
//! (`board/` sits below `movegen/`): `gives_check` against making the move, and static
//! exchange evaluation on known exchanges and against its own threshold test.

use ferrum::board::Board;
use ferrum::movegen::legal_moves;
use ferrum::rules::Notation;
use ferrum::types::Score;

/// Against making each move and looking, over positions rich in checks of every kind.
#[test]
fn gives_check_agrees_with_making_the_move() {
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
        "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
        "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "3k4/1P6/8/4B3/8/8/8/1R2K3 w - - 0 1",
        "4k3/8/4K3/3P4/8/8/8/4R3 w - - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    ] {
        let board = Board::from_fen(fen).unwrap();
        let info = board.check_info();
        for &m in legal_moves(&board).iter() {
            let mut after = board.clone();
            after.make_move(m);
            assert_eq!(board.gives_check(m), after.in_check(), "{m} in {fen}");
            assert_eq!(
                board.gives_check_with(m, &info),
                after.in_check(),
                "{m} in {fen}"
            );
        }
    }
}

fn see(fen: &str, mv: &str) -> Score {
    let board = Board::from_fen(fen).unwrap();
    board.see(board.parse_move(mv).unwrap())
}

#[test]
fn see_of_known_exchanges() {
    // Undefended pawn.
    assert_eq!(
        see("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"),
        100
    );
    // Pawn defended by a knight, taken by a knight, with x-rays behind both sides.
    assert_eq!(
        see(
            "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
            "d3e5"
        ),
        -220
    );
    // Queen takes a pawn defended by a pawn.
    assert_eq!(see("4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1", "e1e5"), -850);
    // Rook battery against a single defender: RxP, RxR, RxR wins a pawn... and the rook.
    assert_eq!(see("3r2k1/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), 100);
    // Quiet move onto an attacked square loses the piece.
    assert_eq!(see("4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1", "c3e4"), -320);
    // QxR, RxQ, KxR: the king may take last...
    assert_eq!(see("3rk3/8/8/8/8/8/3r4/3QK3 w - - 0 1", "d1d2"), 50);
    // ...but not into a square the bishop still covers, so QxR loses the queen for a rook.
    assert_eq!(see("3rk3/8/8/b7/8/8/3r4/3QK3 w - - 0 1", "d1d2"), -450);
    // En passant and promotion.
    assert_eq!(see("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
    assert_eq!(see("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), 850);
    assert_eq!(see("r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7a8q"), 500 + 850);
    assert!(Board::startpos().see_ge(Board::startpos().parse_move("e2e4").unwrap(), 0));
}

/// The threshold test agrees with the full exchange, for every legal move of every
/// position of the perft suite and the positions above, at thresholds around every
/// difference of piece values.
#[test]
fn see_threshold_test_agrees_with_full_exchange() {
    let perft = include_str!("../epd/perft.epd")
        .lines()
        .filter_map(|line| line.split(';').next())
        .map(str::to_owned);
    // Tactical middlegames, where exchanges are long: the first four EPD fields.
    let wac = include_str!("../epd/wac-revised.epd")
        .lines()
        .map(|line| line.split(' ').take(4).collect::<Vec<_>>().join(" "));
    for fen in [
        "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1",
        "3rk3/8/8/b7/8/8/3r4/3QK3 w - - 0 1",
        "3r2k1/8/8/3p4/8/8/3R4/3RK3 w - - 0 1",
    ]
    .map(str::to_owned)
    .into_iter()
    .chain(perft)
    .chain(wac)
    {
        let board = Board::from_fen(fen.trim()).unwrap();
        for &m in legal_moves(&board).iter() {
            let value = board.see(m);
            for threshold in [
                -1300, -1000, -850, -630, -500, -400, -230, -220, -180, -100, -11, -10, -1, 0, 1,
                10, 11, 100, 180, 220, 230, 320, 400, 500, 630, 850, 1000, 1300,
            ] {
                assert_eq!(
                    board.see_ge(m, threshold),
                    value >= threshold,
                    "{m} {threshold} in {fen}"
                );
            }
        }
    }
}
