//! Learning (`Learning`, `LearnFile`) against the real binary: a trap that a short search
//! falls into in one game is avoided at once in the next, over UCI and XBoard; learning
//! off writes nothing; damaged, cut and foreign files and unwritable paths are reported,
//! and play goes on. The trap's scores are the hand-crafted evaluation's (`--hce`).

mod common;

use common::Session;
use ferrum::board::Board;
use ferrum::engine::learn::{self, LearnEntry};
use ferrum::rules::Notation;
use std::path::PathBuf;

/// Black to move. At depth 8 the bishop sacrifice Bxh2+ looks best (-1.55), but after
/// Kxh2 a search of the same depth finds Black lost (-4.29); a depth-14 search plays Bd6.
const TRAP: &str = "1rbk2r1/p1pp1p2/4pn2/1B2b2p/3P4/PPN1P3/2P2PPP/R1B2RK1 b - - 0 1";
const SACRIFICE: &str = "e5h2";
const REPLY: &str = "g1h2";
const RIGHT: &str = "e5d6";
const DEPTH: &str = "8";

/// A directory of its own for a test's files.
fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("learn-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The position after the sacrifice and its refutation: the one the first game learns.
fn after_reply() -> Board {
    let mut board = Board::from_fen(TRAP).unwrap();
    for m in [SACRIFICE, REPLY] {
        board.make_move(board.parse_move(m).unwrap());
    }
    board
}

/// A UCI session learning into `path`; the first report (the file's count) is returned.
fn uci_learning(path: &str) -> (Session, String) {
    let mut s = Session::uci_with(&["--hce"]);
    s.send(&format!("setoption name LearnFile value {path}"));
    s.send("setoption name Learning value true");
    let report = s.until(|l| l.starts_with("info string")).pop().unwrap();
    (s, report)
}

/// Searches `position` to the test's depth: the lines up to `bestmove` and the lines sent
/// after it (the learning reports come once the move is out), and the move.
fn search(s: &mut Session, position: &str) -> (Vec<String>, Vec<String>, String) {
    s.send(&format!("position {position}"));
    s.send(&format!("go depth {DEPTH}"));
    let (lines, best) = s.bestmove();
    s.send("isready");
    let after = s.until(|l| l == "readyok");
    let mv = best.split(' ').nth(1).unwrap().to_string();
    (lines, after, mv)
}

/// The score of the last `info` line with one.
fn last_score(lines: &[String]) -> i32 {
    let line = lines
        .iter()
        .rev()
        .find(|l| l.contains(" score cp "))
        .unwrap();
    let after = line.split(" score cp ").nth(1).unwrap();
    after.split(' ').next().unwrap().parse().unwrap()
}

/// Game 1 from `fen`: the search plays `played` with `score`, the opponent replies `reply`,
/// and the search of the position after it finds a score at least 75 lower. Returns the
/// lines the engine sent after that second move.
fn first_game(s: &mut Session, fen: &str, played: &str, score: i32, reply: &str) -> Vec<String> {
    s.send("ucinewgame");
    let (lines, _, mv) = search(s, &format!("fen {fen}"));
    assert_eq!(mv, played, "{lines:?}");
    assert_eq!(last_score(&lines), score, "{lines:?}");
    let (lines, after, _) = search(s, &format!("fen {fen} moves {played} {reply}"));
    assert!(last_score(&lines) <= score - 75, "{lines:?}");
    after
}

/// Game 1 from the trap: the sacrifice, and the position after its refutation learned.
fn fall_into_the_trap(s: &mut Session) -> Vec<String> {
    first_game(s, TRAP, SACRIFICE, -155, REPLY)
}

#[test]
fn a_trap_learned_in_one_game_is_avoided_in_the_next() {
    let dir = temp_dir("trap");
    let path = dir.join("ferrum.learn");
    let (mut s, report) = uci_learning(path.to_str().unwrap());
    // A missing file is an empty one, not an error.
    assert_eq!(
        report,
        format!("info string learn file {}: 0 positions", path.display())
    );
    let after = fall_into_the_trap(&mut s);
    let learned_fen = after_reply().to_fen();
    assert!(
        after.iter().any(|l| l
            == &format!(
                "info string learned {learned_fen}: score cp -429 at depth 8; 1 position in {}",
                path.display()
            )),
        "{after:?}"
    );
    let file = learn::read(&path).unwrap();
    assert!(file.problems.is_empty(), "{:?}", file.problems);
    let [entry] = file.entries.as_slice() else {
        panic!("{:?}", file.entries)
    };
    assert_eq!(entry.board.key(), after_reply().key());
    assert_eq!((entry.depth, entry.score, entry.seq), (8, -429, 1));

    // Game 2: the same position and depth, answered with the move a deep search plays,
    // and a score near the deep search's.
    s.send("ucinewgame");
    let (lines, _, mv) = search(&mut s, &format!("fen {TRAP}"));
    assert_eq!(mv, RIGHT, "{lines:?}");
    assert!((-250..=-160).contains(&last_score(&lines)), "{lines:?}");
    // The learning's doing: without it the next game falls for the sacrifice again.
    s.send("setoption name Learning value false");
    s.send("ucinewgame");
    let (_, _, mv) = search(&mut s, &format!("fen {TRAP}"));
    assert_eq!(mv, SACRIFICE);
    // And a deep search agrees with the learned answer.
    s.send("ucinewgame");
    s.send(&format!("position fen {TRAP}"));
    s.send("go depth 14");
    assert_eq!(s.bestmove().1.split(' ').nth(1), Some(RIGHT));
    std::fs::remove_dir_all(dir).unwrap();
}

/// WAC.042, White to move: Ba5 wins, by +3.82 at depth 14. At depth 8 Ferrum plays it
/// expecting ...Bd4 and +7.12; after ...Bf8 it sees +3.93. In the next game the search
/// from WAC.042 reaches the learned position on its principal variation, where ordinary
/// entries only order moves: the learned score is taken there too, and shown at once.
#[test]
fn a_score_learned_on_the_principal_variation_is_seen_at_once() {
    const WAC_042: &str = "r1b1r1k1/pp1n1pbp/1qp3p1/3p4/1B1P4/Q3PN2/PP2BPPP/R4RK1 w - - 0 1";
    let dir = temp_dir("principal-variation");
    let path = dir.join("ferrum.learn");
    let (mut s, _) = uci_learning(path.to_str().unwrap());
    let after = first_game(&mut s, WAC_042, "b4a5", 712, "g7f8");
    assert!(
        after.iter().any(|l| l.contains("score cp 393 at depth 8")),
        "{after:?}"
    );
    s.send("ucinewgame");
    let (lines, _, mv) = search(&mut s, &format!("fen {WAC_042}"));
    assert_eq!(mv, "b4a5");
    assert_eq!(last_score(&lines), 393, "{lines:?}");
    assert!(
        lines
            .iter()
            .rev()
            .nth(1)
            .unwrap()
            .ends_with(" pv b4a5 g7f8"),
        "{lines:?}"
    );
    s.send("setoption name Learning value false");
    s.send("ucinewgame");
    let (lines, _, _) = search(&mut s, &format!("fen {WAC_042}"));
    assert_eq!(last_score(&lines), 712, "{lines:?}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn learning_off_writes_nothing() {
    let dir = temp_dir("off");
    let path = dir.join("ferrum.learn");
    let mut s = Session::uci_with(&["--hce"]);
    s.send(&format!(
        "setoption name LearnFile value {}",
        path.display()
    ));
    let after = fall_into_the_trap(&mut s);
    assert!(!after.iter().any(|l| l.contains("learn")), "{after:?}");
    assert!(!path.exists());
    std::fs::remove_dir_all(dir).unwrap();
}

/// The learned entry of the first game, and an unrelated one, as a file's text.
fn two_entries() -> String {
    let start = Board::startpos();
    let entries = [
        LearnEntry {
            board: start.clone(),
            depth: 10,
            score: 20,
            mv: start.parse_move("e2e4").unwrap(),
            seq: 1,
        },
        LearnEntry {
            board: after_reply(),
            depth: 8,
            score: -429,
            mv: after_reply().parse_move("c8b7").unwrap(),
            seq: 2,
        },
    ];
    learn::to_text(&entries)
}

#[test]
fn damaged_files_are_reported_and_their_good_entries_used() {
    let dir = temp_dir("damaged");
    let path = dir.join("damaged.learn");
    // A byte of the first entry changed (its score), the second intact.
    let text = two_entries().replacen(" 20 e2e4", " 28 e2e4", 1);
    std::fs::write(&path, &text).unwrap();
    let (mut s, report) = uci_learning(path.to_str().unwrap());
    assert_eq!(
        report,
        format!(
            "info string learn file {}: line 2: damaged: its checksum does not match; \
             1 position kept",
            path.display()
        )
    );
    // Every new game says it again (the file is not changed by reading it), and the good
    // entry does its work.
    s.send("ucinewgame");
    let (lines, _, mv) = search(&mut s, &format!("fen {TRAP}"));
    assert!(lines[0].contains("line 2: damaged"), "{lines:?}");
    assert_eq!(mv, RIGHT, "{lines:?}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);

    // Cut in the middle of its last line.
    let text = two_entries();
    std::fs::write(&path, &text[..text.len() - 20]).unwrap();
    s.send("setoption name Learning value true");
    let report = s.until(|l| l.starts_with("info string")).pop().unwrap();
    assert!(
        report.ends_with("line 3: cut short; 1 position kept"),
        "{report}"
    );

    // Not a learn file at all: refused, and never written over.
    let foreign = b"\x00\x01\x02 a book, say".to_vec();
    std::fs::write(&path, &foreign).unwrap();
    s.send("setoption name Learning value true");
    let report = s.until(|l| l.starts_with("info string")).pop().unwrap();
    assert!(
        report.contains("not a learn file") && report.ends_with("learning goes on without it"),
        "{report}"
    );
    let after = fall_into_the_trap(&mut s);
    assert!(
        after
            .iter()
            .any(|l| l.contains("not a learn file") && l.ends_with("the position is not saved")),
        "{after:?}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), foreign);
    s.ready();
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_unwritable_learn_file_is_reported_and_play_goes_on() {
    let dir = temp_dir("unwritable");
    let path = dir.join("no-such-directory").join("ferrum.learn");
    let (mut s, report) = uci_learning(path.to_str().unwrap());
    assert!(report.ends_with(": 0 positions"), "{report}");
    let after = fall_into_the_trap(&mut s);
    let failure = after
        .iter()
        .find(|l| l.contains("cannot write it"))
        .unwrap_or_else(|| panic!("{after:?}"));
    assert!(failure.ends_with("the position is not saved"), "{failure}");
    assert!(!path.exists());
    // Nothing was left behind, and the engine plays on.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    let (_, _, mv) = search(&mut s, "startpos moves e2e4");
    assert!(!mv.is_empty());
    std::fs::remove_dir_all(dir).unwrap();
}

/// XBoard: the same two games, the engine playing Black.
#[test]
fn xboard_learns_across_games() {
    let dir = temp_dir("xboard");
    let path = dir.join("ferrum.learn");
    let mut s = Session::start(&["--hce", "xboard"]);
    s.send("xboard");
    s.send("protover 2");
    let features = s.until(|l| l.contains("done=1")).join("\n");
    for option in [
        "feature option=\"Learning -check 0\"",
        "feature option=\"LearnFile -file ferrum.learn\"",
    ] {
        assert!(features.contains(option), "{option}: {features}");
    }
    s.send(&format!("option LearnFile={}", path.display()));
    s.send("option Learning=1");
    let line = s.until(|l| l.starts_with('#')).pop().unwrap();
    assert_eq!(
        line,
        format!("# learn file {}: 0 positions", path.display())
    );
    let game_one_move = |s: &mut Session| {
        s.send("new");
        s.send("force");
        s.send(&format!("setboard {TRAP}"));
        s.send(&format!("sd {DEPTH}"));
        s.send("go");
        s.until(|l| l.starts_with("move ")).pop().unwrap()
    };
    assert_eq!(game_one_move(&mut s), format!("move {SACRIFICE}"));
    s.send(&format!("usermove {REPLY}"));
    s.until(|l| l.starts_with("move "));
    s.send("ping 1");
    let lines = s.until(|l| l == "pong 1");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("# learned {}", after_reply().to_fen()))),
        "{lines:?}"
    );
    assert_eq!(learn::read(&path).unwrap().entries.len(), 1);
    assert_eq!(game_one_move(&mut s), format!("move {RIGHT}"));

    // A damaged file is told to the user.
    std::fs::write(&path, two_entries().replacen(" 20 e2e4", " 28 e2e4", 1)).unwrap();
    s.send("new");
    s.send("ping 2");
    let lines = s.until(|l| l == "pong 2");
    assert!(
        lines.iter().any(|l| l.starts_with("telluser learn file")
            && l.ends_with("line 2: damaged: its checksum does not match; 1 position kept")),
        "{lines:?}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
