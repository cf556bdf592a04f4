//! Syzygy probing on the 3- and 4-piece tables in `tests/data/syzygy` (the wide comparison
//! with python-chess is `scripts/syzygy-check.py`, run by CI).

use ferrum::board::Board;
use ferrum::search::{Limits, SearchOptions, Session, Signals, Syzygy};
use ferrum::tablebase::{Tablebases, Wdl};
use ferrum::types::{MATE_BOUND, TB_BOUND};
use std::sync::{Arc, Mutex};

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
        // Four pieces, whose DTZ tables index blocks through their size table's padding
        // (a bound that missed it failed these probes): values as python-chess reads them.
        for (fen, dtz) in [
            ("8/8/8/8/8/2k5/7r/KQ6 w - - 0 1", 57),
            ("8/8/8/6KQ/8/8/1Q6/6k1 w - - 0 1", 1),
        ] {
            let probe = tables.probe_root(&board(fen)).unwrap();
            assert_eq!((probe.wdl, probe.dtz), (Wdl::Win, dtz), "{fen}");
        }
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

/// A directory named more than once, or beside empty and missing ones, holds the same
/// tables: each found once, none reported as a problem.
#[test]
fn a_directory_named_twice() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for path in [
        format!("{TABLES}:{TABLES}"),
        format!("/nonexistent:{TABLES}:/nonexistent:{TABLES}/"),
    ] {
        let tables = Tablebases::open(&path).unwrap();
        assert_eq!(tables.max_pieces(), 4, "{path}");
        assert!(
            tables.problems().is_empty(),
            "{path}: {:?}",
            tables.problems()
        );
        let kqk = board("8/8/8/4k3/8/8/8/KQ6 b - - 0 1");
        assert_eq!(tables.probe_wdl(&kqk), Some(Wdl::Loss), "{path}");
        assert!(tables.probe_root(&kqk).is_some(), "{path}");
    }
}

/// Each case: a position, and the result the side to move has in it.
const ROOT_CASES: [(&str, Wdl); 5] = [
    ("8/8/8/8/8/2k5/8/KQ5r w - - 0 1", Wdl::Win),
    ("8/8/8/4k3/8/8/8/KQ6 b - - 0 1", Wdl::Loss),
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", Wdl::Win),
    ("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", Wdl::Draw),
    ("8/8/3k4/8/8/3K4/3B4/7r w - - 0 1", Wdl::Draw),
];

fn with_syzygy(f: impl FnOnce(&Syzygy)) {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    f(&Syzygy::new(Arc::new(Tablebases::open(TABLES).unwrap())));
}

/// The root filter keeps the result: every kept move has the position's value, all such
/// moves are kept for analysis, and for play only the ones nearest to converting (or, when
/// lost, furthest from it).
#[test]
fn root_moves_keep_the_result() {
    with_syzygy(|tb| {
        for (fen, value) in ROOT_CASES {
            let board = board(fen);
            let probe = tb.tables.probe_root(&board).unwrap();
            assert_eq!(probe.wdl, value, "{fen}");
            let best: Vec<_> = probe.moves.iter().filter(|m| m.1 == value).collect();
            let all = tb.root_moves(&board, false).unwrap();
            assert_eq!(all.len(), best.len(), "{fen}");
            let play = tb.root_moves(&board, true).unwrap();
            let distances: Vec<i32> = best
                .iter()
                .filter(|m| play.iter().any(|p| p.0 == m.0))
                .map(|m| m.2.abs())
                .collect();
            assert_eq!(distances.len(), play.len(), "{fen}");
            let extreme = match value {
                Wdl::Win => best.iter().map(|m| m.2.abs()).min(),
                Wdl::Loss => best.iter().map(|m| m.2.abs()).max(),
                _ => None,
            };
            match extreme {
                Some(d) => assert!(distances.iter().all(|&x| x == d), "{fen}"),
                None => assert_eq!(play.len(), best.len(), "{fen}"),
            }
            for (_, score) in all {
                match value {
                    Wdl::Win => assert!(score > TB_BOUND && score < MATE_BOUND),
                    Wdl::Loss => assert!(score < -TB_BOUND && score > -MATE_BOUND),
                    _ => assert_eq!(score, 0),
                }
            }
        }
    });
}

/// A short search with the tables plays a move that keeps the result, where the search
/// alone does not always (e2-e4 in KPvK gives the win away), and counts its probes.
#[test]
fn searches_keep_the_result_and_count_probes() {
    with_syzygy(|tb| {
        for (fen, value) in ROOT_CASES {
            let board = board(fen);
            let options = SearchOptions {
                syzygy: Some(tb.clone()),
                ..SearchOptions::default()
            };
            let mut session = Session::new(1, options);
            let result = session.run(&board, &Limits::depth(4), &Signals::default(), &mut |_| {});
            let best = result.best.unwrap();
            let kept = tb.tables.probe_root(&board).unwrap().moves;
            let (_, wdl, _) = kept.iter().find(|m| m.0 == best).unwrap();
            assert_eq!(*wdl, value, "{fen}: {best}");
            // The tree reaches positions after a pawn move, where the tables are probed.
            if fen.contains('P') {
                assert!(result.tbhits > 0, "{fen}");
            }
        }
    });
}

/// Damaged files are found when the tables open and left out, with a reason each; the
/// rest of the set still answers. (The positions have no capture: the prober resolves
/// captures first and may not need the table.) A table cut short at a multiple of 64 bytes passes the
/// prober's own size test and would be read past its end without the layout check.
#[test]
fn damaged_files_are_left_out() {
    let dir = std::env::temp_dir().join(format!("ferrum-damaged-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(TABLES).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rtbw" || e == "rtbz") {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    let cut = |name: &str, size: fn(u64) -> u64| {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(dir.join(name))
            .unwrap();
        file.set_len(size(file.metadata().unwrap().len())).unwrap();
    };
    cut("KQvKR.rtbw", |len| len - 64);
    cut("KRvK.rtbz", |len| len - 7);
    let magic = dir.join("KPvK.rtbw");
    let mut bytes = std::fs::read(&magic).unwrap();
    bytes[0] ^= 0xff;
    std::fs::write(&magic, bytes).unwrap();

    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let tables = Tablebases::open(dir.to_str().unwrap()).unwrap();
    let mut problems = tables.problems().to_vec();
    problems.sort();
    assert_eq!(
        problems,
        [
            "KPvK.rtbw: not a Syzygy table (bad magic number)",
            "KQvKR.rtbw: cut short or damaged",
            "KRvK.rtbz: incomplete (7625 bytes)",
        ]
    );
    assert_eq!(
        tables.probe_wdl(&board("8/8/8/8/8/2k5/7r/KQ6 w - - 0 1")),
        None
    );
    assert_eq!(
        tables.probe_wdl(&board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")),
        None
    );
    // KRvK keeps its WDL table; without DTZ there is no root probe.
    let krk = board("8/8/8/4k3/8/8/8/KR6 b - - 0 1");
    assert_eq!(tables.probe_wdl(&krk), Some(Wdl::Loss));
    assert!(tables.probe_root(&krk).is_none());
    let kqk = board("8/8/8/4k3/8/8/8/KQ6 b - - 0 1");
    assert_eq!(tables.probe_root(&kqk).unwrap().wdl, Wdl::Loss);
    drop(tables);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A table that is there but cannot be read is reported, not skipped as missing. (As root
/// every file can be read, and there is nothing to check.)
#[cfg(unix)]
#[test]
fn unreadable_files_are_reported() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("ferrum-unreadable-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["KQvK.rtbw", "KQvK.rtbz"] {
        std::fs::copy(format!("{TABLES}/{name}"), dir.join(name)).unwrap();
    }
    let locked = dir.join("KQvK.rtbz");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::File::open(&locked).is_err() {
        let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        let tables = Tablebases::open(dir.to_str().unwrap()).unwrap();
        let problems = tables.problems();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("KQvK.rtbz") && problems[0].contains("ermission"));
        let kqk = board("8/8/8/4k3/8/8/8/KQ6 b - - 0 1");
        assert_eq!(tables.probe_wdl(&kqk), Some(Wdl::Loss));
        assert!(tables.probe_root(&kqk).is_none());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
