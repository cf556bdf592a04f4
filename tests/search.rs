//! Search behaviour: mates found and scored as mates, legal non-empty principal variations,
//! limits respected, MultiPV and searchmoves, determinism, and evaluation symmetry.

use ferrum::board::Board;
use ferrum::eval::evaluate_once as evaluate;
use ferrum::movegen::legal_moves;
use ferrum::rules::Notation;
use ferrum::search::{Limits, Report, SearchInfo, SearchOptions, SearchResult, Session, Signals};
use ferrum::types::{MATE, Move, UciScore};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// A search in a new session, with the principal variations it reported.
fn run(fen: &str, limits: Limits, options: &SearchOptions) -> (SearchResult, Vec<Vec<Move>>) {
    let board = Board::from_fen(fen).unwrap();
    let mut session = Session::new(16, options.clone());
    let mut pvs = Vec::new();
    let result = session.run(&board, &limits, &Signals::default(), &mut |r| {
        if let Report::Line(info) = r {
            pvs.push(info.pv.clone());
        }
    });
    (result, pvs)
}

/// A search that reports nothing.
fn silent(
    session: &mut Session,
    board: &Board,
    limits: &Limits,
    signals: &Signals,
) -> SearchResult {
    session.run(board, limits, signals, &mut |_| {})
}

fn assert_legal_line(fen: &str, line: &[Move]) {
    let mut board = Board::from_fen(fen).unwrap();
    assert!(!line.is_empty(), "empty PV in {fen}");
    for &m in line {
        assert!(
            legal_moves(&board).contains(&m),
            "illegal PV move {m} in {fen}"
        );
        board.make_move(m);
    }
}

#[test]
fn finds_mates_and_scores_them_in_moves() {
    for (fen, mate_in, best) in [
        ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, "a1a8"),
        (
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            1,
            "h5f7",
        ),
        (
            "2bqkbn1/2pppp2/np2N3/r3P1p1/p2N2B1/5Q2/PPPPKPP1/RNB2r2 w - - 0 1",
            2,
            "",
        ),
        ("6k1/8/6K1/8/8/8/8/R7 w - - 0 1", 1, "a1a8"),
        ("7k/8/5K2/8/8/8/8/6R1 w - - 0 1", 2, ""),
    ] {
        let (result, pvs) = run(fen, Limits::depth(8), &SearchOptions::default());
        assert_eq!(UciScore(result.score).mate_in(), Some(mate_in), "{fen}");
        if !best.is_empty() {
            assert_eq!(result.best.unwrap().to_string(), best, "{fen}");
        }
        pvs.iter().for_each(|pv| assert_legal_line(fen, pv));
        // The PV plays the mate out, to the end and no further.
        let pv = &result.lines[0].pv;
        assert_eq!(pv.len(), 2 * mate_in as usize - 1, "{fen}: {pv:?}");
        let mut board = Board::from_fen(fen).unwrap();
        pv.iter().for_each(|&m| board.make_move(m));
        assert!(board.in_check() && legal_moves(&board).is_empty(), "{fen}");
    }
    // The side being mated sees a negative mate score: after 1.Kf7 Black's only move Kh7
    // meets Rh1#.
    let (result, _) = run(
        "7k/5K2/8/8/8/8/8/6R1 b - - 1 1",
        Limits::depth(6),
        &SearchOptions::default(),
    );
    assert_eq!(UciScore(result.score).mate_in(), Some(-1));
}

#[test]
fn no_legal_move_means_no_best_move() {
    let (mated, _) = run(
        "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",
        Limits::depth(4),
        &SearchOptions::default(),
    );
    assert_eq!((mated.best, mated.score), (None, -MATE));
    let (stalemate, _) = run(
        "7k/5Q2/8/8/8/8/8/6K1 b - - 0 1",
        Limits::depth(4),
        &SearchOptions::default(),
    );
    assert_eq!((stalemate.best, stalemate.score), (None, 0));
}

#[test]
fn draws_score_zero() {
    // Bare kings and a knight: nothing can be won.
    let (result, _) = run(
        "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",
        Limits::depth(6),
        &SearchOptions::default(),
    );
    assert_eq!(result.score, 0);
    // Perpetual check is the best Black has, a queen down.
    let fen = "6k1/5ppp/8/8/8/1q6/8/QQ4K1 b - - 0 1";
    let (result, _) = run(fen, Limits::depth(10), &SearchOptions::default());
    assert!(result.score.abs() < 1000, "{}", result.score);
}

#[test]
fn every_reported_line_is_legal() {
    for fen in std::fs::read_to_string("epd/bench.epd")
        .unwrap()
        .lines()
        .step_by(5)
    {
        let (result, pvs) = run(fen, Limits::depth(7), &SearchOptions::default());
        assert!(result.best.is_some());
        pvs.iter().for_each(|pv| assert_legal_line(fen, pv));
        if let Some(ponder) = result.ponder {
            assert_legal_line(fen, &[result.best.unwrap(), ponder]);
        }
    }
}

#[test]
fn multipv_gives_distinct_lines_best_first() {
    let options = SearchOptions {
        multipv: 4,
        ..SearchOptions::default()
    };
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (result, _) = run(fen, Limits::depth(6), &options);
    assert_eq!(result.lines.len(), 4);
    let firsts: Vec<Move> = result.lines.iter().map(|l| l.pv[0]).collect();
    for (i, line) in result.lines.iter().enumerate() {
        assert_eq!(line.multipv, i + 1);
        assert!(!firsts[..i].contains(&line.pv[0]));
        assert_legal_line(fen, &line.pv);
    }
    assert!(result.lines.windows(2).all(|w| w[0].score >= w[1].score));
    // More lines than moves: one per legal move.
    let (few, _) = run(
        "7k/8/8/8/8/8/8/K7 w - - 0 1",
        Limits::depth(3),
        &SearchOptions {
            multipv: 10,
            ..options
        },
    );
    assert_eq!(few.lines.len(), 3);
}

/// The client's view of a MultiPV search: the last line of each rank. Every set of lines
/// reported ends with its last rank; the view must then hold distinct first moves, best first.
fn assert_client_view_consistent(fen: &str, lines: &[SearchInfo], result: &SearchResult) {
    let k = result.lines.len();
    let mut view: Vec<Option<SearchInfo>> = vec![None; k];
    let mut sets = 0;
    for line in lines {
        view[line.multipv - 1] = Some(line.clone());
        if line.multipv == k {
            sets += 1;
            let held: Vec<&SearchInfo> = view.iter().map(|l| l.as_ref().unwrap()).collect();
            let firsts: Vec<Move> = held.iter().map(|l| l.pv[0]).collect();
            for (i, m) in firsts.iter().enumerate() {
                assert!(!firsts[..i].contains(m), "{fen}: {m} twice in {firsts:?}");
            }
            assert!(
                held.windows(2).all(|w| w[0].score >= w[1].score),
                "{fen}: lines out of order"
            );
        }
    }
    assert!(sets > 0);
    let last: Vec<SearchInfo> = view.into_iter().map(Option::unwrap).collect();
    assert_eq!(last, result.lines, "{fen}: the last lines are the result's");
}

#[test]
fn multipv_lines_as_a_client_keeps_them() {
    let fens = std::fs::read_to_string("epd/bench.epd").unwrap();
    for (i, fen) in fens.lines().step_by(7).enumerate() {
        let board = Board::from_fen(fen).unwrap();
        let multipv = 2 + i % 4;
        let searchmoves = if i % 2 == 1 {
            legal_moves(&board).iter().copied().step_by(2).collect()
        } else {
            Vec::new()
        };
        let limits = Limits {
            depth: Some(9),
            searchmoves: searchmoves.clone(),
            ..Limits::default()
        };
        let options = SearchOptions {
            multipv,
            ..SearchOptions::default()
        };
        let mut session = Session::new(16, options);
        let mut lines = Vec::new();
        let result = session.run(&board, &limits, &Signals::default(), &mut |r| {
            if let Report::Line(info) = r {
                lines.push(info.clone());
            }
        });
        assert!(
            result
                .lines
                .iter()
                .all(|l| searchmoves.is_empty() || searchmoves.contains(&l.pv[0]))
        );
        assert_client_view_consistent(fen, &lines, &result);
    }
}

/// Replays `line` from `fen`, failing if a move follows a position where the game is over:
/// mate, stalemate, the fifty-move rule or a threefold repetition.
fn assert_line_ends_with_the_game(fen: &str, line: &[Move]) {
    let mut board = Board::from_fen(fen).unwrap();
    for &m in line {
        let over = legal_moves(&board).is_empty()
            || board.is_fifty_move_draw()
            || board.repetitions() >= 2;
        assert!(
            !over,
            "{fen}: PV {line:?} goes on after the game ended, with {m}"
        );
        board.make_move(m);
    }
}

#[test]
fn principal_variations_end_where_the_game_ends() {
    for fen in [
        // The fifty-move rule falls due inside the search, mostly after a check.
        "8/8/8/4k3/8/8/8/3QK3 w - - 97 120",
        "8/8/8/3k4/8/8/r7/4K2R b - - 98 90",
        "6k1/5ppp/8/8/8/1q6/8/QQ4K1 b - - 95 60",
        "8/8/4k3/8/2R5/8/5K2/3r4 w - - 99 100",
        // Perpetual check: the repetition ends the line.
        "6k1/5ppp/8/8/8/1q6/8/QQ4K1 b - - 0 1",
    ] {
        let (_, pvs) = run(fen, Limits::depth(12), &SearchOptions::default());
        pvs.iter()
            .for_each(|pv| assert_line_ends_with_the_game(fen, pv));
    }
}

#[test]
fn searchmoves_restrict_the_root() {
    let board = Board::startpos();
    let only = vec![
        board.parse_move("a2a3").unwrap(),
        board.parse_move("h2h3").unwrap(),
    ];
    let limits = Limits {
        depth: Some(5),
        searchmoves: only.clone(),
        ..Limits::default()
    };
    let (result, _) = run(&board.to_fen(), limits, &SearchOptions::default());
    assert!(only.contains(&result.best.unwrap()));
}

#[test]
fn node_limit_is_exact_enough_and_deterministic() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (a, _) = run(fen, Limits::nodes(20_000), &SearchOptions::default());
    let (b, _) = run(fen, Limits::nodes(20_000), &SearchOptions::default());
    assert!(a.nodes <= 20_000 + 1 && a.nodes >= 19_000, "{}", a.nodes);
    assert_eq!((a.nodes, a.best, a.score), (b.nodes, b.best, b.score));
}

#[test]
fn stop_flag_ends_an_infinite_search_with_a_move() {
    let board = Board::startpos();
    let mut session = Session::new(16, SearchOptions::default());
    let signals = Signals::default();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let start = Instant::now();
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            signals.stop.store(true, Ordering::Relaxed);
        });
        silent(&mut session, &board, &limits, &signals)
    });
    assert!(result.best.is_some());
    assert!(start.elapsed() < Duration::from_secs(5));
    // Stopped before it starts: the first iteration still completes with a move.
    signals.stop.store(true, Ordering::Relaxed);
    let result = silent(&mut session, &board, &limits, &signals);
    assert!(result.best.is_some() && result.depth >= 1);
}

#[test]
fn movetime_is_respected() {
    // Generous margin: this checks for overruns of whole iterations, not milliseconds, and
    // the other tests of this file search on the same two cores meanwhile.
    let start = Instant::now();
    let (result, _) = run(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        Limits::movetime(300),
        &SearchOptions::default(),
    );
    let elapsed = start.elapsed();
    assert!(result.best.is_some());
    assert!(elapsed < Duration::from_millis(300 + 250), "{elapsed:?}");
    assert!(elapsed >= Duration::from_millis(150), "{elapsed:?}");
}

#[test]
fn mate_limit_stops_once_found() {
    let limits = Limits {
        mate: Some(2),
        ..Limits::default()
    };
    let (result, _) = run(
        "7k/8/5K2/8/8/8/8/6R1 w - - 0 1",
        limits,
        &SearchOptions::default(),
    );
    assert_eq!(UciScore(result.score).mate_in(), Some(2));
    assert!(result.depth <= 6, "{}", result.depth);
}

#[test]
fn bench_signature_is_stable() {
    let mut first = Vec::new();
    let mut second = Vec::new();
    let a = ferrum::tools::bench::run(5, &mut first);
    let b = ferrum::tools::bench::run(5, &mut second);
    assert_eq!(a, b);
    let last = String::from_utf8(first)
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .to_string();
    assert!(
        last.starts_with(&format!("{a} nodes ")) && last.ends_with(" nps"),
        "{last}"
    );
}

#[test]
fn evaluation_is_colour_symmetric() {
    for path in ["epd/perft.epd", "epd/perft960.epd", "epd/bench.epd"] {
        for line in std::fs::read_to_string(path).unwrap().lines() {
            let board = Board::from_fen(line.split(';').next().unwrap()).unwrap();
            let mirrored = board.mirrored();
            assert_eq!(evaluate(&board), evaluate(&mirrored), "{}", board.to_fen());
            assert_eq!(mirrored.mirrored().to_fen(), board.to_fen());
        }
    }
}

#[test]
fn pondering_ignores_the_clock_until_ponderhit() {
    let board = Board::startpos();
    let mut session = Session::new(16, SearchOptions::default());
    let signals = Signals::new(true);
    let start = Instant::now();
    let (result, hit_at) = std::thread::scope(|s| {
        let hit = s.spawn(|| {
            std::thread::sleep(Duration::from_millis(400));
            signals.ponder.store(false, Ordering::Relaxed);
            start.elapsed()
        });
        let result = silent(&mut session, &board, &Limits::movetime(100), &signals);
        (result, hit.join().unwrap())
    });
    let elapsed = start.elapsed();
    assert!(result.best.is_some());
    // Not before the ponderhit at 400 ms; then the 100 ms budget counts from the hit.
    assert!(elapsed >= hit_at, "{elapsed:?} < {hit_at:?}");
    assert!(elapsed < hit_at + Duration::from_millis(250), "{elapsed:?}");
}

#[test]
fn helper_threads_share_the_work() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let board = Board::from_fen(fen).unwrap();
    let signals = Signals::default();
    let options = SearchOptions {
        threads: 3,
        ..SearchOptions::default()
    };
    let mut session = Session::new(16, options.clone());
    let mut pvs = Vec::new();
    let mut report = |r: Report| {
        if let Report::Line(info) = r {
            pvs.push(info.pv.clone());
        }
    };
    let result = session.run(&board, &Limits::movetime(300), &signals, &mut report);
    assert!(result.best.is_some());
    pvs.iter().for_each(|pv| assert_legal_line(fen, pv));
    // The helpers' nodes are counted: more than the main thread's own report shows.
    let main_only = result.lines[0].nodes;
    assert!(result.nodes >= main_only, "{} < {main_only}", result.nodes);
    // A depth-limited search with helpers still ends on its own.
    let (r, _) = run(fen, Limits::depth(8), &options);
    assert!(r.best.is_some() && r.depth == 8);
}

#[test]
fn the_node_limit_counts_every_thread() {
    let board = Board::startpos();
    let mut session = Session::new(16, SearchOptions::default());
    let signals = Signals::default();
    let limit = 300_000;
    for threads in [1, 2] {
        session.options.threads = threads;
        let limits = Limits {
            nodes: Some(limit),
            ..Limits::default()
        };
        session.clear();
        let result = silent(&mut session, &board, &limits, &signals);
        // Helpers publish every 1,024 nodes and stop at their next look at the signal, a
        // little later on a busy machine; counted alone, each thread would reach the limit.
        let slack = if threads == 1 { 0 } else { limit / 4 };
        assert!(
            (limit..=limit + slack).contains(&result.nodes),
            "{threads} threads: {} nodes",
            result.nodes
        );
    }
}

#[test]
fn thread_data_carries_history_from_one_search_to_the_next() {
    let board =
        Board::from_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9")
            .unwrap();
    let mut session = Session::new(16, SearchOptions::default());
    // The table is cleared for each search; the thread data only where asked.
    let nodes = |session: &mut Session| {
        session.table().clear();
        silent(session, &board, &Limits::depth(9), &Signals::default()).nodes
    };
    session.clear();
    let fresh = nodes(&mut session);
    session.clear();
    assert_eq!(nodes(&mut session), fresh, "fresh data, same search");
    // The same data again: the history of the first search orders the second's moves.
    session.clear();
    assert_eq!(nodes(&mut session), fresh);
    assert_eq!(session.thread_data().len(), 1);
    assert_ne!(nodes(&mut session), fresh, "history kept, a different tree");
    // One entry per thread.
    session.options.threads = 2;
    silent(&mut session, &board, &Limits::depth(4), &Signals::default());
    assert_eq!(session.thread_data().len(), 2);
}
