//! Syzygy probing on the 3- and 4-piece tables in `tests/data/syzygy` (the wide comparison
//! with python-chess is `scripts/syzygy-check.py`, run by CI).

use ferrum::board::Board;
use ferrum::tablebase::{Tablebases, Wdl};
use std::sync::Mutex;

const TABLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");

/// The prober holds one set of tables at a time, so the tests take turns.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn with_tables(f: impl FnOnce(&Tablebases)) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    f(&Tablebases::open(TABLES).unwrap());
}

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap()
}

#[test]
fn values_and_distances_of_known_positions() {
    with_tables(|tables| {
        assert_eq!(tables.max_pieces(), 4);
        // Qb2 and Qa4 mate at once; Kd1 stalemates.
        let probe = tables
            .probe_root(&board("8/8/8/8/8/8/2Q5/k1K5 w - - 0 1"))
            .unwrap();
        assert_eq!((probe.wdl, probe.dtz), (Wdl::Win, 1));
        let result = |m: &str| {
            let found = probe.moves.iter().find(|(mv, ..)| mv.to_string() == m);
            found.map(|&(_, wdl, dtz)| (wdl, dtz)).unwrap()
        };
        assert_eq!(result("c2b2"), (Wdl::Win, 1));
        assert_eq!(result("c1d1"), (Wdl::Draw, 0));
        assert_eq!(probe.moves.len(), 24);
        // Mated.
        let mated = tables
            .probe_root(&board("8/8/8/8/8/k7/8/K6q w - - 0 1"))
            .unwrap();
        assert_eq!(
            (mated.wdl, mated.dtz, mated.moves.len()),
            (Wdl::Loss, -1, 0)
        );
        // King and pawn: only the king moves win (e2-e4 lets the defender hold).
        let kpk = board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert_eq!(tables.probe_wdl(&kpk), Some(Wdl::Win));
        assert_eq!(tables.probe_root(&kpk).unwrap().dtz, 9);
        let defender = board("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1");
        assert_eq!(tables.probe_wdl(&defender), Some(Wdl::Draw));
    });
}

/// The prober's own make-move once lost the en passant square after a double push (fixed
/// in vendor/pyrrhic-rs): here ...e7-e5 would win but for d5xe6 e.p.
#[test]
fn en_passant_after_a_double_push() {
    with_tables(|tables| {
        let probe = tables
            .probe_root(&board("K2k4/4p3/8/3P4/8/8/8/8 b - - 1 1"))
            .unwrap();
        assert_eq!((probe.wdl, probe.dtz), (Wdl::Win, 5));
        let e5 = probe.moves.iter().find(|(m, ..)| m.to_string() == "e7e5");
        assert_eq!(e5.map(|&(_, wdl, _)| wdl), Some(Wdl::Draw));
        let after = board("K2k4/8/8/3Pp3/8/8/8/8 w - e6 0 2");
        assert_eq!(tables.probe_wdl(&after), Some(Wdl::Draw));
    });
}

#[test]
fn positions_outside_the_tables() {
    with_tables(|tables| {
        // Five pieces, and castling rights (which the tables do not know).
        assert_eq!(
            tables.probe_wdl(&board("4k3/8/8/8/8/8/3PP3/3QK3 w - - 0 1")),
            None
        );
        assert_eq!(
            tables.probe_wdl(&board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")),
            None
        );
        assert!(tables.probe_root(&Board::startpos()).is_none());
    });
}

#[test]
fn a_directory_without_tables() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let error = Tablebases::open("/nonexistent/syzygy").err().unwrap();
    assert!(error.contains("no Syzygy tables found"), "{error}");
    // The prober is free again for a good path.
    assert!(Tablebases::open(TABLES).is_ok());
}
