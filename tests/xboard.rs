//! XBoard/CECP sessions against the real binary: handshake, playing games in every mode,
//! clocks, analysis, claims and resignation, with bad input answered in the protocol's
//! own words.

mod common;

use common::Session;
use ferrum::board::Board;
use ferrum::rules::Notation;
use std::time::Duration;

fn xboard() -> Session {
    let mut s = Session::start(&["xboard"]);
    s.send("xboard");
    s.send("protover 2");
    let features = s.until(|l| l.contains("done=1"));
    let all = features.join(" ");
    for feature in [
        "ping=1",
        "setboard=1",
        "usermove=1",
        "sigint=0",
        "sigterm=0",
        "colors=0",
        "analyze=1",
        "exclude=1",
        "memory=1",
        "smp=1",
        "myname=\"Ferrum",
        "egt=\"syzygy\"",
        "option=\"SyzygyProbeLimit -spin 7 0 7\"",
    ] {
        assert!(all.contains(feature), "{feature}: {all}");
    }
    s
}

/// The options come from the engine's one table: XBoard's own, without those it sets by
/// commands of its own; `memory` and `cores` are brought within the options' ranges.
#[test]
fn options_as_xboard_shows_them() {
    let mut s = Session::start(&["xboard"]);
    s.send("xboard");
    s.send("protover 2");
    let all = s.until(|l| l.contains("done=1")).join("\n");
    for option in [
        "feature option=\"Resign -check 1\"",
        "feature option=\"BookFile -file <empty>\"",
        "feature option=\"SyzygyPath -path <empty>\"",
        "feature option=\"UCI_Elo -spin 1500 1000 2800\"",
        "feature option=\"Clear Hash -button\"",
    ] {
        assert!(all.contains(option), "{option}: {all}");
    }
    assert!(!all.contains("option=\"Hash") && !all.contains("option=\"Threads"));
    s.send("memory 0");
    s.send("cores 100000");
    s.send("option MultiPV=0");
    let lines = sync(&mut s, 1);
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("Error")).collect();
    assert_eq!(errors.len(), 1, "{lines:?}");
    assert!(errors[0].contains("MultiPV"), "{lines:?}");
}

/// A session after `new` and `force`: the start position, the engine playing neither side.
fn new_game_in_force_mode() -> Session {
    let mut s = xboard();
    s.send("new");
    s.send("force");
    s
}

/// Sends `ping` and waits for its `pong`: everything sent before has been handled.
fn sync(s: &mut Session, n: u32) -> Vec<String> {
    s.send(&format!("ping {n}"));
    s.until(|l| l == format!("pong {n}"))
}

/// Plays `m` for the opponent: sent to the engine and made on the test's own board.
fn user_move(s: &mut Session, board: &mut Board, m: &str) {
    s.send(&format!("usermove {m}"));
    board.make_move(board.parse_move(m).unwrap());
}

/// The reply the engine expects to its last move (`hint`).
fn hint(s: &mut Session) -> String {
    s.send("hint");
    let line = s.until(|l| l.starts_with("Hint: ")).pop().unwrap();
    line.trim_start_matches("Hint: ").to_string()
}

/// The engine's next move, checked against the position it is played in.
fn engine_move(s: &Session, board: &mut Board) -> String {
    let lines = s.until(|l| l.starts_with("move ") || l == "resign");
    let last = lines.last().unwrap().clone();
    if let Some(m) = last.strip_prefix("move ") {
        let mv = board
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{m}: {e} in {}", board.to_fen()));
        board.make_move(mv);
    }
    last
}

#[test]
fn plays_a_game_as_black_then_white() {
    let mut s = xboard();
    s.send("new");
    s.send("level 0 0:10 0.1");
    s.send("post");
    let mut board = Board::startpos();
    for (mine, time) in [("e2e4", 1000), ("g1f3", 990), ("f1c4", 980)] {
        s.send(&format!("time {time}"));
        s.send(&format!("otim {time}"));
        user_move(&mut s, &mut board, mine);
        assert!(engine_move(&s, &mut board).starts_with("move "));
    }
    // Switch sides: the engine now plays the side to move, which is White.
    s.send("go");
    assert!(engine_move(&s, &mut board).starts_with("move "));
    sync(&mut s, 1);
}

#[test]
fn force_mode_and_playother() {
    let mut s = new_game_in_force_mode();
    let mut board = Board::startpos();
    for m in ["d2d4", "d7d5", "c2c4"] {
        user_move(&mut s, &mut board, m);
    }
    // Force mode: no move of ours.
    let lines = sync(&mut s, 2);
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
    // playother: we play the side not to move (White), so we wait for Black.
    s.send("playother");
    user_move(&mut s, &mut board, "e7e6");
    assert!(engine_move(&s, &mut board).starts_with("move "));
}

#[test]
fn bad_input_gets_protocol_errors() {
    let mut s = new_game_in_force_mode();
    s.send("usermove e2e5");
    assert_eq!(s.until(|_| true), vec!["Illegal move (illegal): e2e5"]);
    s.send("usermove zz");
    assert_eq!(s.until(|_| true), vec!["Illegal move (bad notation): zz"]);
    s.send("frobnicate 3");
    assert_eq!(
        s.until(|_| true),
        vec!["Error (unknown command): frobnicate"]
    );
    s.send("level x y z");
    assert!(s.until(|_| true)[0].starts_with("Error ("));
    s.send("setboard 8/8/8 w - - 0 1");
    assert!(s.until(|_| true)[0].starts_with("Error (Illegal position"));
    s.send("undo");
    assert!(s.until(|_| true)[0].starts_with("Error ("));
    // Nothing changed: e2e4 is still legal.
    s.send("usermove e2e4");
    s.send("go");
    let mut board = Board::startpos();
    board.make_move(board.parse_move("e2e4").unwrap());
    assert!(engine_move(&s, &mut board).starts_with("move "));
}

#[test]
fn fischer_random_castling_as_the_protocol_writes_it() {
    let mut s = new_game_in_force_mode();
    s.send("variant fischerandom");
    s.send("force");
    s.send("setboard 1r2k1r1/1p4p1/8/8/8/8/1P4P1/1R2K1R1 w GBgb - 0 1");
    // King-side for White (king g1, rook f1), queen-side for Black (king c8, rook d8),
    // then each castled rook moves: legal only if the castling put it there.
    for m in ["O-O", "0-0-0", "f1f7", "d8d1"] {
        s.send(&format!("usermove {m}"));
    }
    let lines = sync(&mut s, 1);
    assert!(!lines.iter().any(|l| l.contains("Illegal")), "{lines:?}");
    // Castling without the right, in the same words, is refused as illegal.
    s.send("setboard 1r2k1r1/1p4p1/8/8/8/8/1P4P1/1R2K1R1 w - - 0 1");
    s.send("usermove O-O");
    assert_eq!(
        sync(&mut s, 2),
        vec!["Illegal move (illegal): O-O", "pong 2"]
    );
}

#[test]
fn claims_mate_and_honours_st_and_sd() {
    let mut s = new_game_in_force_mode();
    s.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    s.send("st 1");
    s.send("go");
    let lines = s.until(|l| l.starts_with("1-0"));
    assert!(lines.contains(&"move a1a8".to_string()), "{lines:?}");
    assert_eq!(lines.last().unwrap(), "1-0 {White mates}");
    // Asked to move in a finished game: the result again, and no move.
    s.send("go");
    assert_eq!(s.until(|_| true), vec!["1-0 {White mates}"]);
    // sd caps the depth of the thinking output.
    s.send("new");
    s.send("sd 3");
    s.send("post");
    s.send("usermove e2e4");
    let lines = s.until(|l| l.starts_with("move "));
    let depths: Vec<i32> = lines
        .iter()
        .filter(|l| !l.starts_with("move"))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(
        !depths.is_empty() && depths.iter().all(|&d| d <= 3),
        "{lines:?}"
    );
}

/// `nps`: the clock's time becomes a node budget, and the thinking output reports the
/// time those nodes stand for.
#[test]
fn node_rate_turns_time_into_nodes() {
    let mut s = xboard();
    s.send("new");
    s.send("nps 5000");
    s.send("st 1");
    s.send("post");
    s.send("usermove e2e4");
    let lines = s.until(|l| l.starts_with("move "));
    let thinking: Vec<Vec<u64>> = lines
        .iter()
        .filter(|l| !l.starts_with("move"))
        .map(|l| {
            l.split(['\t', ' '])
                .take(4)
                .map(|w| w.parse().unwrap_or(0))
                .collect()
        })
        .collect();
    let last = thinking.last().expect("thinking output");
    let (time_cs, nodes) = (last[2], last[3]);
    // One second at 5,000 nodes a second, less the usual overhead: at most 5,000 nodes.
    assert!(nodes > 0 && nodes <= 5_000, "{lines:?}");
    assert_eq!(time_cs, nodes * 100 / 5_000, "{lines:?}");
    // nps 0: back to the clock.
    s.send("nps 0");
    s.send("st 0.2");
    s.send("usermove d2d4");
    let lines = s.until(|l| l.starts_with("move "));
    assert!(lines.len() > 1, "{lines:?}");
}

#[test]
fn undo_and_remove() {
    let mut s = new_game_in_force_mode();
    for m in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        s.send(&format!("usermove {m}"));
    }
    s.send("remove");
    s.send("undo");
    // Back after 1.e4: e7e5 is legal again and g1f3 is Black's illegal move.
    s.send("usermove g1f3");
    assert_eq!(s.until(|_| true), vec!["Illegal move (illegal): g1f3"]);
    s.send("usermove e7e5");
    sync(&mut s, 3);
}

#[test]
fn analyze_mode() {
    let mut s = xboard();
    s.send("new");
    s.send("post");
    s.send("analyze");
    std::thread::sleep(Duration::from_millis(300));
    s.send("usermove e2e4");
    std::thread::sleep(Duration::from_millis(300));
    s.send("exit");
    let lines = sync(&mut s, 4);
    assert!(
        lines.iter().any(|l| l.contains('\t')),
        "thinking lines expected: {lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
}

/// The first PV move of each thinking line, grouped by depth.
fn first_moves_by_depth(lines: &[String]) -> Vec<(u32, Vec<String>)> {
    let mut groups: Vec<(u32, Vec<String>)> = Vec::new();
    for line in lines {
        let Some((head, pv)) = line.split_once('\t') else {
            continue;
        };
        let depth: u32 = head.split_whitespace().next().unwrap().parse().unwrap();
        let first = pv.split_whitespace().next().unwrap().to_string();
        match groups.last_mut() {
            Some((d, firsts)) if *d == depth => firsts.push(first),
            _ => groups.push((depth, vec![first])),
        }
    }
    groups
}

#[test]
fn analysis_with_several_lines_and_excluded_moves() {
    let mut s = xboard();
    s.send("new");
    s.send("post");
    s.send("option MultiPV=3");
    s.send("analyze");
    std::thread::sleep(Duration::from_millis(200));
    s.send("exclude e2e4");
    s.send("exclude d2d4");
    sync(&mut s, 1);
    std::thread::sleep(Duration::from_millis(500));
    let lines = sync(&mut s, 2);
    let groups = first_moves_by_depth(&lines);
    assert!(groups.iter().any(|(_, f)| f.len() == 3), "{lines:?}");
    for (depth, firsts) in &groups {
        assert!(firsts.len() <= 3, "depth {depth}: {firsts:?}");
        for (i, m) in firsts.iter().enumerate() {
            assert!(
                m != "e2e4" && m != "d2d4",
                "excluded move analysed: {lines:?}"
            );
            assert!(
                !firsts[..i].contains(m),
                "{m} twice at depth {depth}: {lines:?}"
            );
        }
    }

    // Everything out but one move.
    s.send("exclude all");
    s.send("include g1f3");
    sync(&mut s, 3);
    std::thread::sleep(Duration::from_millis(300));
    let lines = sync(&mut s, 4);
    let groups = first_moves_by_depth(&lines);
    assert!(!groups.is_empty());
    assert!(groups.iter().all(|(_, f)| f == &["g1f3"]), "{lines:?}");

    // A move that does not fit is refused; the filter stays.
    s.send("exclude e2e5");
    let lines = sync(&mut s, 5);
    assert!(lines.iter().any(|l| l.starts_with("Error")), "{lines:?}");

    // A new position starts with every move in again.
    s.send("usermove e2e4");
    sync(&mut s, 6);
    std::thread::sleep(Duration::from_millis(500));
    let lines = sync(&mut s, 7);
    let groups = first_moves_by_depth(&lines);
    assert!(groups.iter().any(|(_, f)| f.len() == 3), "{lines:?}");
    s.send("exit");
    sync(&mut s, 8);
}

#[test]
fn move_now_ping_and_quit_while_thinking() {
    let mut s = new_game_in_force_mode();
    s.send("setboard r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    s.send("st 30");
    s.send("go");
    std::thread::sleep(Duration::from_millis(300));
    s.send("?");
    let mut board =
        Board::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .unwrap();
    assert!(engine_move(&s, &mut board).starts_with("move "));
    s.send("usermove a7a6");
    std::thread::sleep(Duration::from_millis(200));
    sync(&mut s, 5);
    s.send("quit");
    assert!(s.exits_within(Duration::from_millis(1000)));
}

#[test]
fn end_of_input_plays_the_move_being_thought_then_exits() {
    let mut s = new_game_in_force_mode();
    s.send("sd 7");
    s.send("go");
    s.stdin = None;
    let mut board = Board::startpos();
    assert!(engine_move(&s, &mut board).starts_with("move "));
    assert!(s.exits_within(Duration::from_millis(1000)));
    // Analysis has no end of its own: it stops, without a move.
    let mut s = xboard();
    s.send("new");
    s.send("analyze");
    std::thread::sleep(Duration::from_millis(200));
    s.stdin = None;
    assert!(s.exits_within(Duration::from_millis(1000)));
    let rest: Vec<String> = s.lines.try_iter().collect();
    assert!(!rest.iter().any(|l| l.starts_with("move ")), "{rest:?}");
}

#[test]
fn resigns_a_lost_game() {
    let mut s = new_game_in_force_mode();
    // White, a bare king, against queen and rook.
    s.send("setboard kqr5/8/8/8/8/8/8/7K w - - 0 1");
    s.send("sd 4");
    s.send("go");
    let mut board = Board::from_fen("kqr5/8/8/8/8/8/8/7K w - - 0 1").unwrap();
    let mut ended = false;
    for reply in ["a8a7", "a7a8", "a8a7", "a7a8"] {
        if engine_move(&s, &mut board) == "resign" {
            ended = true;
            break;
        }
        user_move(&mut s, &mut board, reply);
    }
    assert!(ended, "no resignation");
    // With the option off, the same game is played on.
    s.send("option Resign=0");
    s.send("new");
    s.send("force");
    s.send("setboard kqr5/8/8/8/8/8/8/7K w - - 0 1");
    s.send("sd 4");
    s.send("go");
    let mut board = Board::from_fen("kqr5/8/8/8/8/8/8/7K w - - 0 1").unwrap();
    for reply in ["a8a7", "a7a8", "a8a7"] {
        assert!(engine_move(&s, &mut board).starts_with("move "));
        user_move(&mut s, &mut board, reply);
    }
    assert!(engine_move(&s, &mut board).starts_with("move "));
}

#[test]
fn first_line_picks_xboard_without_a_mode() {
    let mut s = Session::start(&[]);
    s.send("xboard");
    s.send("protover 2");
    s.until(|l| l.contains("done=1"));
    sync(&mut s, 9);
}

#[test]
fn edit_mode_sets_up_a_position() {
    let mut s = new_game_in_force_mode();
    // Empty board; White king e1 and rook h1; Black king e8.
    for line in ["edit", "#", "Ke1", "Rh1", "c", "Ke8", "."] {
        s.send(line);
    }
    // White to move (unchanged), castling assumed from the home squares: O-O is legal.
    s.send("usermove e1g1");
    s.send("usermove e8d7");
    sync(&mut s, 11);
    // The king castled to g1: nothing is left on e1.
    s.send("usermove e1f1");
    assert_eq!(s.until(|_| true), vec!["Illegal move (illegal): e1f1"]);
    // A bad edit line is reported, and the block goes on.
    for line in ["edit", "Zz9", "."] {
        s.send(line);
    }
    assert!(s.until(|_| true)[0].starts_with("Error ("));
    sync(&mut s, 12);
}

#[test]
fn pondering_on_the_expected_reply_and_on_another() {
    let mut s = xboard();
    s.send("new");
    s.send("hard");
    s.send("nopost");
    s.send("level 0 0:20 0");
    s.send("time 2000");
    s.send("otim 2000");
    s.send("usermove e2e4");
    let mut board = Board::startpos();
    board.make_move(board.parse_move("e2e4").unwrap());
    assert!(engine_move(&s, &mut board).starts_with("move "));
    // The engine now ponders on the reply it expects; play exactly that one.
    let expected = hint(&mut s);
    user_move(&mut s, &mut board, &expected);
    assert!(engine_move(&s, &mut board).starts_with("move "));
    // And a reply it did not expect (whichever legal move is not the hint).
    let expected = hint(&mut s);
    let other = ferrum::movegen::legal_moves(&board)
        .iter()
        .map(|&m| board.move_to_uci(m))
        .find(|m| *m != expected)
        .unwrap();
    user_move(&mut s, &mut board, &other);
    assert!(engine_move(&s, &mut board).starts_with("move "));
    // easy ends pondering; force mode moves nothing.
    s.send("easy");
    s.send("force");
    let lines = sync(&mut s, 13);
    assert!(!lines.iter().any(|l| l.starts_with("move ")), "{lines:?}");
}

/// After a ponder hit the search keeps to the clock as `time` gives it then, not to the
/// clock the ponder search started with: here 10 minutes then, a third of a second now.
#[test]
fn ponder_hit_uses_the_clock_of_the_moment() {
    let mut s = xboard();
    s.send("new");
    s.send("hard");
    s.send("nopost");
    s.send("level 0 10 0");
    s.send("time 60000");
    s.send("otim 60000");
    s.send("usermove e2e4");
    let mut board = Board::startpos();
    board.make_move(board.parse_move("e2e4").unwrap());
    // Ten minutes would take a while: move now. The ponder search then begins with ten
    // minutes on the clock...
    std::thread::sleep(Duration::from_millis(200));
    s.send("?");
    assert!(engine_move(&s, &mut board).starts_with("move "));
    let expected = hint(&mut s);
    std::thread::sleep(Duration::from_millis(200));
    // ...and has a third of a second when the expected reply comes.
    s.send("time 33");
    let start = std::time::Instant::now();
    user_move(&mut s, &mut board, &expected);
    assert!(engine_move(&s, &mut board).starts_with("move "));
    let spent = start.elapsed();
    assert!(spent < Duration::from_millis(300), "{spent:?}");
}

/// Tables from `egtpath`: a bad path is told to the user, a good one is used in analysis.
#[test]
fn tablebases_from_egtpath() {
    let mut s = xboard();
    s.send("egtpath syzygy /nonexistent/syzygy");
    let lines = sync(&mut s, 1);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("telluser no Syzygy tables found")),
        "{lines:?}"
    );
    s.send(&format!(
        "egtpath syzygy {}/tests/data/syzygy",
        env!("CARGO_MANIFEST_DIR")
    ));
    let lines = sync(&mut s, 2);
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Syzygy tables up to 4 pieces")),
        "{lines:?}"
    );
    // King and pawn against king: only king moves win. The thinking output's seventh
    // field counts table hits.
    s.send("setboard 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    s.send("post");
    s.send("sd 6");
    s.send("go");
    let lines = s.until(|l| l.starts_with("move "));
    assert!(lines.last().unwrap().starts_with("move e1"), "{lines:?}");
    let hits: Vec<u64> = lines
        .iter()
        .filter_map(|l| {
            l.split('\t')
                .next()?
                .split_whitespace()
                .nth(6)?
                .parse()
                .ok()
        })
        .collect();
    assert!(hits.last().is_some_and(|&h| h > 0), "{lines:?}");
}

#[test]
fn limited_strength_over_xboard() {
    let mut s = xboard();
    s.send("new");
    s.send("option UCI_LimitStrength=1");
    s.send("option UCI_Elo=1000");
    s.send("option UCI_Elo=99");
    let reply = s.until(|l| l.starts_with("Error"));
    assert!(
        reply.last().unwrap().contains("outside 1000 to 2800"),
        "{reply:?}"
    );
    s.send("level 0 5 0");
    s.send("post");
    let mut board = Board::startpos();
    user_move(&mut s, &mut board, "e2e4");
    let lines = s.until(|l| l.starts_with("move "));
    // Thinking output of the four lines it chose among, on 1,024 nodes or a few more.
    let thinking: Vec<&String> = lines.iter().filter(|l| !l.starts_with("move")).collect();
    assert!(thinking.len() >= 4, "{lines:?}");
    let nodes: Vec<u64> = thinking
        .iter()
        .filter_map(|l| l.split_whitespace().nth(3)?.parse().ok())
        .collect();
    assert!(nodes.iter().all(|&n| n < 2_000), "{lines:?}");
    let m = lines.last().unwrap().trim_start_matches("move ");
    board.parse_move(m).unwrap();
    sync(&mut s, 1);
}

/// What the engine says before its next move in `fen` (the side to move is ours), after
/// the commands in `before`: whether it sent `offer draw`, and its move.
fn offers_draw(s: &mut Session, fen: &str, before: &[&str]) -> (bool, String) {
    s.send("new");
    s.send("force");
    s.send(&format!("setboard {fen}"));
    s.send("sd 6");
    for command in before {
        s.send(command);
    }
    s.send("go");
    let lines = s.until(|l| l.starts_with("move ") || l == "resign");
    (
        lines.iter().any(|l| l == "offer draw"),
        lines.last().unwrap().clone(),
    )
}

#[test]
fn draw_offers_are_answered_by_the_score() {
    let mut s = xboard();
    // Black to move a rook and a queen down: takes the draw.
    let lost = "6k1/5ppp/8/8/8/8/5PPP/R2Q2K1 b - - 0 20";
    assert!(offers_draw(&mut s, lost, &["draw"]).0);
    // Without an offer, nothing is said.
    assert!(!offers_draw(&mut s, lost, &[]).0);
    // White to move in the same position: winning, never takes a draw.
    let won = "6k1/5ppp/8/8/8/8/5PPP/R2Q2K1 w - - 0 20";
    let (accepted, reply) = offers_draw(&mut s, won, &["draw"]);
    assert!(!accepted && reply.starts_with("move "), "{reply}");
    // A blocked pawn ending at move 40 is a draw worth taking...
    let level = "4k3/8/8/3p4/3P4/8/8/4K3 w - - 0 40";
    assert!(offers_draw(&mut s, level, &["draw"]).0);
    // ...but not early in the game...
    let early = "4k3/8/8/3p4/3P4/8/8/4K3 w - - 0 10";
    assert!(!offers_draw(&mut s, early, &["draw"]).0);
    // ...nor against an opponent 500 points weaker (contempt from the ratings), nor with
    // the Contempt option set; against a stronger one it is taken.
    assert!(!offers_draw(&mut s, level, &["rating 2600 2100", "draw"]).0);
    assert!(!offers_draw(&mut s, level, &["rating 0 0", "option Contempt=60", "draw"]).0);
    assert!(
        offers_draw(
            &mut s,
            level,
            &["option Contempt=0", "rating 2100 2600", "draw"]
        )
        .0
    );
    s.send("rating 2600");
    let lines = sync(&mut s, 1);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Error") && l.contains("rating needs")),
        "{lines:?}"
    );
}

#[test]
fn offers_a_draw_in_a_dead_drawn_position_once() {
    let mut s = xboard();
    s.send("egtpath syzygy tests/data/syzygy");
    // Bishops of opposite colours: a draw in the tables.
    let fen = "8/8/3k4/2b5/8/3B4/4K3/8 w - - 0 1";
    let mut board = Board::from_fen(fen).unwrap();
    let (offered, reply) = offers_draw(&mut s, fen, &[]);
    assert!(offered && reply.starts_with("move "), "{reply}");
    board.make_move(board.parse_move(&reply[5..]).unwrap());
    // The next move does not offer again.
    let king = if board.piece_at("d6".parse().unwrap()).is_some() {
        "d6d7"
    } else {
        "c5b4"
    };
    user_move(&mut s, &mut board, king);
    let lines = s.until(|l| l.starts_with("move "));
    assert!(!lines.iter().any(|l| l == "offer draw"), "{lines:?}");
}
