//! UCI sessions against the real binary: every command, in the idle, searching and
//! pondering states, with bad input that must be answered and must not disturb the state.

mod common;

use common::Session;
use ferrum::board::Board;
use ferrum::rules::Notation;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Checks a `bestmove` line (and its ponder move) against the position it answers.
fn assert_legal_bestmove(board: &Board, line: &str) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[0], "bestmove", "{line}");
    let best = board
        .parse_move(words[1])
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    if let ["bestmove", _, "ponder", ponder] = words[..] {
        let mut after = board.clone();
        after.make_move(best);
        after
            .parse_move(ponder)
            .unwrap_or_else(|e| panic!("{line}: ponder {e}"));
    }
}

/// The node count of an `info` line.
fn nodes_of(line: &str) -> u64 {
    let after = line.split(" nodes ").nth(1).unwrap();
    after.split(' ').next().unwrap().parse().unwrap()
}

/// Checks that every `pv` in the `info` lines is legal from `board`.
fn assert_legal_pvs(board: &Board, lines: &[String]) {
    for line in lines
        .iter()
        .filter(|l| l.starts_with("info") && l.contains(" pv "))
    {
        let pv = line.split(" pv ").nth(1).unwrap();
        let mut b = board.clone();
        assert!(!pv.trim().is_empty(), "{line}");
        for m in pv.split_whitespace() {
            let mv = b.parse_move(m).unwrap_or_else(|e| panic!("{line}: {e}"));
            b.make_move(mv);
        }
    }
}

#[test]
fn handshake_and_options() {
    let mut s = Session::start(&["uci"]);
    s.send("uci");
    let lines = s.until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name Ferrum"));
    assert!(lines[1].starts_with("id author"));
    for option in [
        "Hash type spin",
        "Threads type spin",
        "Clear Hash type button",
        "Ponder type check",
        "MultiPV type spin",
        "Move Overhead type spin",
        "UCI_Chess960 type check",
        "UCI_AnalyseMode type check",
        "UCI_ShowWDL type check default false",
        "UCI_LimitStrength type check default false",
        "UCI_Elo type spin default 1500 min 1000 max 2800",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option}"))),
            "{option}"
        );
    }
    s.ready();
    s.send("setoption name Hash value 8");
    s.send("setoption name MoveOverhead value 50");
    s.send("setoption name Clear Hash");
    s.send("register later");
    s.send("ucinewgame");
    s.ready();
    // debug on: the search limits come as info strings; off again: silence.
    s.send("debug on");
    s.send("go depth 2");
    let lines = s.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.starts_with("info string limits")),
        "{lines:?}"
    );
    s.send("debug off");
    s.send("go depth 2");
    let lines = s.until(|l| l.starts_with("bestmove"));
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
}

#[test]
fn the_first_line_picks_uci_without_a_mode() {
    let mut s = Session::start(&[]);
    s.send("uci");
    s.until(|l| l == "uciok");
    s.ready();
}

#[test]
fn search_with_limits_gives_legal_lines_and_moves() {
    let mut s = Session::uci();
    let moves = "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6";
    let mut board = Board::startpos();
    for m in moves.split(' ') {
        board.make_move(board.parse_move(m).unwrap());
    }
    s.send(&format!("position startpos moves {moves}"));
    for go in [
        "go depth 6",
        "go nodes 20000",
        "go movetime 200",
        "go wtime 1000 btime 1000 winc 10 binc 10",
        "go wtime 500 btime 500 movestogo 3",
        "go mate 2 depth 4",
    ] {
        s.send(go);
        let (lines, best) = s.bestmove();
        assert!(
            lines.iter().any(|l| l.starts_with("info depth")),
            "{go}: {lines:?}"
        );
        assert_legal_pvs(&board, &lines);
        assert_legal_bestmove(&board, &best);
    }
    // Depth is exact.
    s.send("go depth 4");
    let (lines, _) = s.bestmove();
    let depths: Vec<&str> = lines.iter().filter_map(|l| l.split(' ').nth(2)).collect();
    assert_eq!(depths.iter().filter(|&&d| d == "5").count(), 0, "{lines:?}");
}

/// The last line before `bestmove` is sent only when it says something new: a search that
/// ends on a completed depth does not repeat that depth's line; one stopped by its node
/// limit adds the line with all the nodes.
#[test]
fn the_final_line_is_not_a_repeat() {
    let mut s = Session::uci();
    s.send("position startpos");
    for go in ["go depth 8", "go depth 5", "go nodes 5000"] {
        s.send("ucinewgame");
        s.send(go);
        let (lines, _) = s.bestmove();
        let info: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        assert!(info.len() >= 2, "{go}: {lines:?}");
        let (last, before) = (info[info.len() - 1], info[info.len() - 2]);
        assert_ne!(last, before, "{go}: {lines:?}");
        assert!(nodes_of(last) >= nodes_of(before), "{go}: {lines:?}");
    }
}

/// With UCI_ShowWDL every line carries win, draw and loss chances that add up to 1000 and
/// favour the side the score favours, from the model fitted to the evaluation in use;
/// without it, none do.
#[test]
fn win_draw_loss_chances() {
    let mut s = Session::uci();
    // White is a rook up; 13 pawns of material, which the models count as 17.
    s.send("position fen 4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1");
    s.send("go depth 5");
    let (lines, _) = s.bestmove();
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:?}");
    s.send("setoption name UCI_ShowWDL value true");
    let network = ferrum::nnue::embedded().calibration().wdl;
    for (use_nnue, model) in [("false", ferrum::eval::CALIBRATION.wdl), ("true", network)] {
        s.send(&format!("setoption name UseNNUE value {use_nnue}"));
        s.send("go depth 5");
        let (lines, _) = s.bestmove();
        let infos: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        assert!(!infos.is_empty());
        for line in infos {
            let words: Vec<&str> = line.split(' ').collect();
            let at = words.iter().position(|&w| w == "wdl").expect(line);
            let chances = [1, 2, 3].map(|i| words[at + i].parse::<u32>().expect(line));
            let [w, d, l] = chances;
            assert_eq!(w + d + l, 1000, "{line}");
            assert!(w > l, "{line}");
            // After the score and its bound, before the node count.
            let score = words.iter().position(|&w| w == "score").expect(line);
            let nodes = words.iter().position(|&w| w == "nodes").expect(line);
            assert!(score < at && at < nodes, "{line}");
            assert_eq!(words[score + 1], "cp", "{line}");
            let cp = words[score + 2].parse().expect(line);
            assert_eq!(chances, model.chances(cp, 17), "UseNNUE {use_nnue}: {line}");
        }
    }
}

#[test]
fn isready_and_stop_during_infinite_search() {
    let mut s = Session::uci();
    s.send("position startpos");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    s.ready();
    assert!(start.elapsed() < Duration::from_secs(1));
    // Still searching: no best move until told.
    assert!(
        s.next_within(Duration::from_millis(300))
            .is_none_or(|l| !l.starts_with("bestmove"))
    );
    s.send("stop");
    let (_, best) = s.bestmove();
    assert_legal_bestmove(&Board::startpos(), &best);
    // stop when idle: nothing at all.
    s.send("stop");
    s.ready();
}

#[test]
fn infinite_search_holds_its_move_even_when_done() {
    let mut s = Session::uci();
    // Mate in one: the search ends at once, but infinite mode waits for stop.
    s.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    s.send("go infinite");
    let waited = Instant::now();
    while waited.elapsed() < Duration::from_millis(500) {
        if let Some(line) = s.next_within(Duration::from_millis(50)) {
            assert!(!line.starts_with("bestmove"), "{line}");
        }
    }
    s.send("stop");
    assert_eq!(s.bestmove().1.split(' ').nth(1), Some("a1a8"));
}

#[test]
fn pondering() {
    let mut s = Session::uci();
    s.send("setoption name Ponder value true");
    s.send("position startpos moves e2e4 e7e5");
    s.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(400));
    s.send("isready");
    let lines = s.until(|l| l == "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    s.send("ponderhit");
    let start = Instant::now();
    let (_, best) = s.bestmove();
    assert!(
        start.elapsed() < Duration::from_millis(900),
        "{:?}",
        start.elapsed()
    );
    let mut board = Board::startpos();
    for m in ["e2e4", "e7e5"] {
        board.make_move(board.parse_move(m).unwrap());
    }
    assert_legal_bestmove(&board, &best);
    // Ponder, then stop: a best move too.
    s.send("go ponder wtime 1000 btime 1000");
    std::thread::sleep(Duration::from_millis(200));
    s.send("stop");
    assert_legal_bestmove(&board, &s.bestmove().1);
}

#[test]
fn quit_during_search_exits_promptly() {
    let mut s = Session::uci();
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    s.send("quit");
    assert!(s.exits_within(Duration::from_millis(1000)));
}

#[test]
fn end_of_input_answers_the_search_then_exits() {
    let board = Board::startpos();
    // A search only `stop` could end is stopped and answered at once.
    for go in ["go infinite", "go ponder wtime 60000 btime 60000"] {
        let mut s = Session::uci();
        s.send(go);
        std::thread::sleep(Duration::from_millis(200));
        s.stdin = None;
        assert_legal_bestmove(&board, &s.bestmove().1);
        assert!(s.exits_within(Duration::from_millis(1000)), "{go}");
    }
    // Piped commands: a search with a limit runs to it before the answer.
    let mut s = Session::uci();
    s.send("position startpos moves e2e4");
    s.send("go depth 9");
    s.stdin = None;
    let (lines, best) = s.bestmove();
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 9 ")),
        "{lines:#?}"
    );
    let mut board = Board::startpos();
    board.make_move(board.parse_move("e2e4").unwrap());
    assert_legal_bestmove(&board, &best);
    assert!(s.exits_within(Duration::from_millis(1000)));
}

#[test]
fn bad_input_is_answered_and_changes_nothing() {
    let mut s = Session::uci();
    s.send("position startpos moves e2e4");
    assert_eq!(s.perft(1), 20);
    for bad in [
        "xyzzy",
        "position startpos moves e7e5 e2e4",
        "position startpos moves e2e5",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen",
        "position",
        "setoption name Hash value 1000000",
        "setoption name Hash value -1",
        "setoption name Threads value 0",
        "setoption name Threads value 100000",
        "setoption name NoSuchOption value 1",
        "setoption name MultiPV value lots",
        "go depth x",
        "go sideways",
        "debug maybe",
    ] {
        s.send(bad);
        let reply = s.until(|_| true);
        assert!(
            reply[0].starts_with("info string error"),
            "{bad}: {reply:?}"
        );
    }
    // Still the position after 1.e4, and still answering.
    assert_eq!(s.perft(1), 20);
    assert_eq!(s.perft(3), 13_160);
    s.ready();
}

#[test]
fn negative_and_zero_clocks_still_give_a_move() {
    let mut s = Session::uci();
    s.send("position startpos");
    for go in [
        "go wtime -1000 btime -1000",
        "go wtime 0 btime 0 winc 0 binc 0",
        "go wtime 1 btime 1 movestogo 1",
    ] {
        let start = Instant::now();
        s.send(go);
        assert_legal_bestmove(&Board::startpos(), &s.bestmove().1);
        assert!(start.elapsed() < Duration::from_secs(2), "{go}");
    }
}

#[test]
fn a_long_game_in_one_position_command() {
    let mut s = Session::uci();
    // 400 plies of knights going back and forth, then one more move.
    let shuffle = "g1f3 g8f6 f3g1 f6g8 ".repeat(100);
    s.send(&format!("position startpos moves {shuffle}e2e4"));
    assert_eq!(s.perft(1), 20);
    s.send("go depth 5");
    let (_, best) = s.bestmove();
    let board =
        Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    assert_legal_bestmove(&board, &best);
}

#[test]
fn multipv_and_searchmoves() {
    let mut s = Session::uci();
    s.send("setoption name MultiPV value 3");
    s.send("position startpos");
    s.send("go depth 6");
    let (lines, best) = s.bestmove();
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 6 ") && l.contains(&format!(" multipv {k} "))),
            "{k}"
        );
    }
    // A client that reads one score takes the last line's: the move played, after the
    // other lines.
    let last = lines.iter().rfind(|l| l.contains(" pv ")).unwrap();
    assert!(last.contains(" multipv 1 "), "{last}");
    let played = best.split(' ').nth(1).unwrap();
    assert_eq!(
        last.split(" pv ").nth(1).unwrap().split(' ').next(),
        Some(played)
    );
    s.send("setoption name MultiPV value 1");
    s.send("go depth 6 searchmoves a2a3 h2h3");
    let (_, best) = s.bestmove();
    assert!(
        best == "bestmove a2a3"
            || best.starts_with("bestmove a2a3 ")
            || best.starts_with("bestmove h2h3"),
        "{best}"
    );
}

#[test]
fn chess960_castling_in_and_out() {
    let mut s = Session::uci();
    s.send("setoption name UCI_Chess960 value true");
    // The king on b1 castles queen-side by taking its rook on a1.
    s.send("position fen 4k2r/8/8/8/8/8/8/RK6 w A - 0 1 moves b1a1 e8e7");
    s.send("go perft 1");
    let lines = s.until(|l| l.starts_with("Nodes searched"));
    assert!(
        lines.iter().any(|l| l.starts_with("c1")),
        "the king stands on c1: {lines:?}"
    );
    // Standard notation when the option is off: e1g1.
    s.send("setoption name UCI_Chess960 value false");
    s.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    s.send("go perft 1");
    let lines = s.until(|l| l.starts_with("Nodes searched"));
    assert!(
        lines.iter().any(|l| l.starts_with("e1g1:"))
            && lines.iter().any(|l| l.starts_with("e1c1:"))
    );
    assert_eq!(lines.last().unwrap(), "Nodes searched: 26");
}

#[test]
fn line_ends_and_junk() {
    let mut s = Session::uci();
    let stdin = s.stdin.as_mut().unwrap();
    stdin
        .write_all(b"isready\r\n\r\n   \t \nfoo isready\r")
        .unwrap();
    stdin.write_all(b"\n\xff\xfe garbage\n").unwrap();
    stdin.flush().unwrap();
    s.until(|l| l == "readyok");
    s.until(|l| l == "readyok");
    assert!(s.until(|_| true)[0].starts_with("info string error"));
    s.ready();
}

#[test]
fn searches_with_helper_threads() {
    let mut s = Session::uci();
    s.send("setoption name Threads value 2");
    s.send("position startpos moves d2d4");
    s.send("go depth 8");
    let board =
        Board::from_fen("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1").unwrap();
    let (lines, best) = s.bestmove();
    assert_legal_pvs(&board, &lines);
    assert_legal_bestmove(&board, &best);
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    s.ready();
    s.send("stop");
    assert_legal_bestmove(&board, &s.bestmove().1);
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    s.send("quit");
    assert!(s.exits_within(Duration::from_millis(1000)));
}

/// The Syzygy options: declared as Stockfish names them, a bad path reported, and good
/// tables used: table hits counted, the root moves kept to those that keep the win, and
/// `<empty>` switching them off again.
#[test]
fn syzygy_options() {
    let mut s = Session::start(&["uci"]);
    s.send("uci");
    let lines = s.until(|l| l == "uciok");
    for option in [
        "SyzygyPath type string default <empty>",
        "SyzygyProbeDepth type spin default 1 min 1 max 100",
        "SyzygyProbeLimit type spin default 7 min 0 max 7",
        "Syzygy50MoveRule type check default true",
    ] {
        assert!(
            lines.iter().any(|l| l == &format!("option name {option}")),
            "{option}"
        );
    }
    s.send("setoption name SyzygyPath value /nonexistent/syzygy");
    s.send("isready");
    let lines = s.until(|l| l == "readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string no Syzygy tables found")),
        "{lines:?}"
    );
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
    s.send(&format!("setoption name SyzygyPath value {tables}"));
    s.send("isready");
    let lines = s.until(|l| l == "readyok");
    assert!(
        lines
            .iter()
            .any(|l| l == &format!("info string Syzygy tables up to 4 pieces from {tables}")),
        "{lines:?}"
    );
    // King and pawn against king: e2-e4 draws, the king moves win.
    let kpk = "position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    s.send(kpk);
    s.send("go depth 6");
    let lines = s.until(|l| l.starts_with("bestmove"));
    assert!(
        lines.last().unwrap().starts_with("bestmove e1"),
        "{lines:?}"
    );
    let last_info = &lines[lines.len() - 2];
    let field = |name: &str| -> i64 {
        let words: Vec<&str> = last_info.split_whitespace().collect();
        let at = words.iter().position(|w| *w == name).unwrap();
        words[at + 1].parse().unwrap()
    };
    assert!(field("tbhits") > 0, "{last_info}");
    assert!(field("cp") > 31_000, "{last_info}");
    // With MultiPV, every move that keeps the win, shown with the tables' scores and in
    // their order.
    s.send("setoption name MultiPV value 3");
    s.send("position fen 8/8/8/4k3/8/8/8/KQ6 w - - 0 1");
    s.send("go depth 5");
    let lines = s.until(|l| l.starts_with("bestmove"));
    // As a GUI keeps them: the last line of each number.
    let mut last = [""; 3];
    for line in lines.iter().filter(|l| l.starts_with("info depth 5 ")) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "multipv").unwrap();
        last[words[at + 1].parse::<usize>().unwrap() - 1] = line;
    }
    let score = |l: &str| -> i32 {
        let words: Vec<&str> = l.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "cp").unwrap();
        words[at + 1].parse().unwrap()
    };
    let scores: Vec<i32> = last.iter().map(|l| score(l)).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{last:?}");
    assert!(scores.iter().all(|&s| s > 31_000), "{last:?}");
    let firsts: std::collections::HashSet<&str> = last
        .iter()
        .map(|l| l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap())
        .collect();
    assert_eq!(firsts.len(), 3, "{last:?}");
    s.send("setoption name MultiPV value 1");
    s.send("setoption name SyzygyPath value <empty>");
    s.send(kpk);
    s.send("go depth 6");
    let lines = s.until(|l| l.starts_with("bestmove"));
    assert!(
        lines
            .iter()
            .all(|l| !l.contains("tbhits") || l.contains("tbhits 0 "))
    );
}

/// The value after `name` in an `info` line.
fn info_field(line: &str, name: &str) -> u64 {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == name).expect(line);
    words[at + 1].parse().expect(line)
}

#[test]
fn limited_strength_plays_varied_moves_on_a_small_budget_but_analyses_fully() {
    let mut s = Session::uci();
    s.send("setoption name UCI_LimitStrength value true");
    s.send("setoption name UCI_Elo value 1000");
    s.send("position startpos moves e2e4");
    let board =
        Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    let mut played = std::collections::BTreeSet::new();
    for _ in 0..20 {
        s.send("go wtime 60000 btime 60000");
        let (lines, best) = s.bestmove();
        assert_legal_bestmove(&board, &best);
        assert_legal_pvs(&board, &lines);
        let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" pv ")).collect();
        // Four lines to choose from; the last info line is the one played.
        assert!(infos.iter().any(|l| l.contains(" multipv 4 ")), "{lines:?}");
        let last = infos.last().unwrap();
        let first_move = last
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert_eq!(best.split(' ').nth(1), Some(first_move), "{lines:?}");
        // 1,024 nodes at Elo 1000, past only by the first iteration, which always ends.
        assert!(info_field(last, "nodes") < 2_000, "{last}");
        played.insert(best.split(' ').nth(1).unwrap().to_string());
    }
    assert!(played.len() >= 2, "always {played:?}");
    // Analysis is never weakened: one line, and as many nodes as the time allows.
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    s.send("stop");
    let (lines, _) = s.bestmove();
    let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" pv ")).collect();
    assert!(infos.iter().all(|l| l.contains(" multipv 1 ")), "{lines:?}");
    assert!(
        info_field(infos.last().unwrap(), "nodes") > 10_000,
        "{lines:?}"
    );
    s.send("setoption name UCI_Elo value 3000");
    let reply = s.until(|l| l.contains("UCI_Elo"));
    assert!(
        reply.last().unwrap().contains("outside 1000 to 2800"),
        "{reply:?}"
    );
}

/// The network: on by default, UseNNUE switches the evaluation (a different search), EvalFile loads a
/// network and refuses a file that is not one, keeping the network in use.
#[test]
fn network_options() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let net = dir.join("uci-network.nnue");
    std::fs::write(&net, ferrum::nnue::embedded().to_bytes()).unwrap();
    let mut s = Session::uci();
    s.send("position startpos moves e2e4 e7e5");
    let nodes = |s: &mut Session| {
        s.send("ucinewgame");
        s.send("go depth 8");
        let (lines, best) = s.bestmove();
        let last = lines.iter().rev().find(|l| l.contains(" nodes ")).unwrap();
        (nodes_of(last), best)
    };
    let (network, best) = nodes(&mut s);
    assert!(best.starts_with("bestmove "), "{best}");
    s.send("setoption name UseNNUE value false");
    assert_ne!(nodes(&mut s).0, network, "the network is the default");
    s.send("setoption name UseNNUE value true");
    assert_eq!(nodes(&mut s).0, network);
    for bad in [dir.join("missing.nnue"), PathBuf::from("Cargo.toml")] {
        s.send(&format!("setoption name EvalFile value {}", bad.display()));
        s.send("isready");
        let lines = s.until(|l| l == "readyok");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: EvalFile") && l.contains("stays")),
            "{lines:?}"
        );
    }
    assert_eq!(nodes(&mut s).0, network, "the network in use stays");
    s.send(&format!("setoption name EvalFile value {}", net.display()));
    s.send("isready");
    let lines = s.until(|l| l == "readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("(768 -> 256) x 2 -> 1, SCReLU, 8 output buckets")),
        "{lines:?}"
    );
    assert_eq!(nodes(&mut s).0, network, "the same network from its file");
}

/// A network file may carry its calibration: the engine says which it uses, the file's own
/// or the default, and its win/draw/loss chances follow that model.
#[test]
fn a_network_file_brings_its_calibration() {
    use ferrum::calibration::{Calibration, WdlModel};
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let mut network = (*ferrum::nnue::embedded()).clone();
    network.own_calibration = None;
    let plain = dir.join("uci-uncalibrated.nnue");
    std::fs::write(&plain, network.to_bytes()).unwrap();
    // A model far from the default's: half the spread, so the same score wins more often.
    let own = Calibration {
        wdl: WdlModel {
            a: [0.0, 0.0, 0.0, 150.0],
            b: [0.0, 0.0, 0.0, 40.0],
        },
        ..ferrum::nnue::DEFAULT_CALIBRATION
    };
    network.own_calibration = Some(own);
    let calibrated = dir.join("uci-calibrated.nnue");
    std::fs::write(&calibrated, network.to_bytes()).unwrap();

    let mut s = Session::uci();
    s.send("setoption name UCI_ShowWDL value true");
    s.send("position fen 4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1");
    for (file, says, model) in [
        (
            &plain,
            "none in the file, the default",
            ferrum::nnue::DEFAULT_CALIBRATION.wdl,
        ),
        (&calibrated, "the file's own", own.wdl),
    ] {
        s.send(&format!("setoption name EvalFile value {}", file.display()));
        s.send("isready");
        let lines = s.until(|l| l == "readyok");
        let stated = format!("WDL model and UCI_Elo scale: {says}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string network") && l.contains(&stated)),
            "{lines:?}"
        );
        s.send("go depth 5");
        let (lines, _) = s.bestmove();
        let last = lines.iter().rev().find(|l| l.contains(" wdl ")).unwrap();
        let words: Vec<&str> = last.split(' ').collect();
        let at = words.iter().position(|&w| w == "wdl").unwrap();
        let chances = [1, 2, 3].map(|i| words[at + i].parse::<u32>().unwrap());
        let score = words.iter().position(|&w| w == "cp").unwrap();
        let cp = words[score + 1].parse().unwrap();
        assert_eq!(chances, model.chances(cp, 17), "{last}");
    }
}

#[test]
fn debug_log_file_has_every_line_both_ways() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let (flag_log, option_log) = (dir.join("uci-flag.log"), dir.join("uci-option.log"));
    for log in [&flag_log, &option_log] {
        let _ = std::fs::remove_file(log);
    }
    let mut s = Session::start(&["uci", "--log", flag_log.to_str().unwrap()]);
    s.send("uci");
    s.until(|l| l == "uciok");
    s.send("position startpos moves e2e4");
    s.send("go depth 4");
    let (_, best) = s.bestmove();
    // Sets the log file and expects the engine to say, before `readyok`, why not.
    let refused = |s: &mut Session, path: &str, why: &str| {
        s.send(&format!("setoption name Debug Log File value {path}"));
        s.send("isready");
        let lines = s.until(|l| l == "readyok");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string") && l.contains(why)),
            "{lines:?}"
        );
    };
    refused(
        &mut s,
        "/no/such/dir/ferrum.log",
        "cannot open the log file",
    );
    // A full disk: the first line that cannot be written is reported and the engine plays on.
    #[cfg(target_os = "linux")]
    {
        refused(&mut s, "/dev/full", "cannot write the log file /dev/full");
        s.send("go depth 4");
        s.bestmove();
    }
    s.send(&format!(
        "setoption name Debug Log File value {}",
        option_log.display()
    ));
    s.ready();
    s.send("quit");
    assert!(s.exits_within(Duration::from_secs(5)));

    let text = std::fs::read_to_string(&flag_log).unwrap();
    // Every line reads `<RFC 3339 time> >> input` or `<time> << output`.
    let entries: Vec<(&str, &str)> = text
        .lines()
        .map(|l| {
            let (time, rest) = l.split_once(' ').unwrap();
            assert!(time.starts_with("20") && time.ends_with('Z'), "{l}");
            rest.split_at(3)
        })
        .collect();
    let has = |arrow: &str, line: &str| entries.contains(&(arrow, line));
    assert!(has(">> ", "uci") && has("<< ", "uciok"), "{text}");
    assert!(
        has(">> ", "go depth 4") && has("<< ", best.as_str()),
        "{text}"
    );
    assert!(
        !text.contains("readyok"),
        "the failed open stopped this log: {text}"
    );
    let text = std::fs::read_to_string(&option_log).unwrap();
    assert!(
        text.contains(" << readyok") && text.contains(" >> quit"),
        "{text}"
    );
}

/// Lines that arrive together with the one that opens the log are logged too, in the
/// order the engine handles them: the log starts with the option, whatever the timing.
#[test]
fn a_log_opened_mid_input_has_every_line_after_it() {
    use std::process::{Command, Stdio};
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let log = dir.join("uci-burst.log");
    let _ = std::fs::remove_file(&log);
    let script = format!(
        "uci\nsetoption name Debug Log File value {}\nisready\nposition startpos\ngo depth 6\n",
        log.display()
    );
    let mut engine = Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // One write: every line is read before the engine has handled the option.
    engine
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    assert!(engine.wait().unwrap().success());
    let text = std::fs::read_to_string(&log).unwrap();
    let order: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(' ').map(|(_, rest)| rest))
        .filter(|l| {
            l.starts_with(">> ") || l.starts_with("<< readyok") || l.starts_with("<< bestmove")
        })
        .map(|l| l.split(' ').take(2).collect::<Vec<_>>().join(" "))
        .map(|l| Box::leak(l.into_boxed_str()) as &str)
        .collect();
    assert_eq!(
        order,
        [
            ">> isready",
            "<< readyok",
            ">> position",
            ">> go",
            "<< bestmove"
        ],
        "{text}"
    );
}

/// Black can repeat the position a third time: a draw worth 0 without contempt, worth
/// the contempt either way with it; analysis always weighs it as 0.
#[test]
fn contempt_prices_a_draw_by_repetition() {
    let mut s = Session::uci();
    let repeat = |s: &mut Session, contempt: i32, go: &str| -> (String, String) {
        s.send(&format!("setoption name Contempt value {contempt}"));
        s.send("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        s.send(go);
        let (lines, best) = s.bestmove();
        let score = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
        let score = score.split(" score ").nth(1).unwrap();
        let score = score.split(' ').take(2).collect::<Vec<_>>().join(" ");
        (best.split_whitespace().nth(1).unwrap().to_string(), score)
    };
    assert_eq!(
        repeat(&mut s, -100, "go depth 6"),
        ("f6g8".to_string(), "cp 100".to_string())
    );
    let (best, _) = repeat(&mut s, 100, "go depth 6");
    assert_ne!(best, "f6g8");
    s.send("setoption name UCI_AnalyseMode value true");
    let (_, score) = repeat(&mut s, -100, "go depth 6");
    assert_ne!(score, "cp 100", "analysis has no contempt");
}
