//! `ferrum play`: a person's game in the terminal, driven over pipes. (A real terminal,
//! through tmux, is scripts/terminal-game.py.)

mod common;

use common::Session;

fn play(args: &[&str]) -> Session {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    all.push("--ascii");
    let s = Session::start(&all);
    s.until(|l| l.contains("to move"));
    s
}

/// The board's rows as shown, rank 8 first (White below).
fn board_after(s: &Session, marker: &str) -> Vec<String> {
    let lines = s.until(|l| l.contains(marker));
    let start = lines
        .iter()
        .rposition(|l| l.starts_with(" 8 "))
        .expect("a board");
    lines[start..start + 8].to_vec()
}

/// Waits for the end of the game and checks how it ended.
fn expect_end(s: &Session, expected: &str) {
    let end = s.until(|l| l.contains("Game over"));
    assert!(end.last().unwrap().contains(expected), "{end:?}");
}

#[test]
fn moves_in_both_notations_errors_undo_and_pgn() {
    let mut s = play(&["white", "--tc", "none", "--elo", "1000"]);
    s.send("e4");
    s.until(|l| l.contains("You play 1. e4"));
    s.until(|l| l == "Opening: B00 King's Pawn Game");
    s.until(|l| l.contains("Ferrum plays 1..."));
    s.until(|l| l.contains("White to move"));
    s.send("g1f3");
    s.until(|l| l.contains("You play 2. Nf3"));
    s.until(|l| l.contains("White to move"));
    for (text, message) in [
        ("Ke3", "error: 'Ke3' is not a legal move here"),
        (
            "e9",
            "error: 'e9' is not a move in coordinate notation or SAN (type 'help' for commands)",
        ),
        ("a b c", "error: 'a b c' is neither a move nor a command"),
    ] {
        s.send(text);
        let reply = s.until(|l| l.contains("error"));
        assert!(reply.last().unwrap().contains(message), "{reply:?}");
    }
    s.send("undo");
    s.until(|l| l.contains("Took back two moves"));
    let rows = board_after(&s, "White to move");
    assert_eq!(
        rows[5], " 3  .  .  .  .  .  .  .  . ",
        "Nf3 is gone: {rows:?}"
    );
    assert_eq!(rows[4].matches('P').count(), 1, "e4 stays: {rows:?}");
    s.send("pgn");
    let pgn = s.until(|l| l.ends_with(" *") || l == "*");
    assert!(pgn.iter().any(|l| l.contains("[White \"You\"]")), "{pgn:?}");
    assert!(
        pgn.iter()
            .any(|l| l.contains("[Black \"Ferrum (Elo 1000)\"]"))
    );
    // Named by its last named position: 1. e4 at least.
    let eco = pgn.iter().position(|l| l.starts_with("[ECO \"")).unwrap();
    assert!(pgn[eco + 1].starts_with("[Opening \""), "{pgn:?}");
    let moves = pgn.last().unwrap();
    assert!(
        moves.ends_with("1. e4") || moves.contains("1. e4 "),
        "{moves}"
    );
    assert_eq!(
        moves.split_whitespace().count(),
        4,
        "1. e4 <reply> *: {moves}"
    );
    s.send("quit");
    assert!(s.exits_within(std::time::Duration::from_secs(5)));
}

#[test]
fn an_ambiguous_move_names_the_candidates() {
    let mut s = play(&[
        "white",
        "--tc",
        "none",
        "--fen",
        "4k3/8/8/8/8/8/4K3/R6R w - - 0 1",
    ]);
    s.send("Rd1");
    let reply = s.until(|l| l.contains("error"));
    assert!(
        reply
            .last()
            .unwrap()
            .contains("'Rd1' fits more than one legal move (say which: Rad1, Rhd1)"),
        "{reply:?}"
    );
}

#[test]
fn mate_ends_the_game_and_it_is_written_to_the_pgn_file() {
    let dir = std::env::temp_dir().join(format!("ferrum-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.pgn");
    let _ = std::fs::remove_file(&path);
    let file = path.to_str().unwrap();
    // White mates on the back rank at once; then, as Black, Ferrum mates us.
    let mut s = play(&[
        "white",
        "--tc",
        "none",
        "--fen",
        "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        "--pgn-out",
        file,
    ]);
    s.send("Ra8");
    s.until(|l| l.contains("You play 1. Ra8#"));
    expect_end(&s, "Game over: 1-0 (White mates)");
    s.until(|l| l.contains("was added to"));
    s.send("e4");
    s.until(|l| l.contains("The game is over"));
    s.send("new black");
    s.until(|l| l.contains("you play Black"));
    // The same position with Ferrum as White: it finds the mate.
    s.until(|l| l.contains("Ferrum plays 1. Ra8#"));
    expect_end(&s, "Game over: 1-0 (White mates)");
    s.until(|l| l.contains("was added to"));
    let pgn = std::fs::read_to_string(&path).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 2, "{pgn}");
    assert!(
        pgn.contains("[White \"You\"]\n[Black \"Ferrum\"]\n[Result \"1-0\"]"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[White \"Ferrum\"]\n[Black \"You\"]\n[Result \"1-0\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\"]"));
    assert_eq!(pgn.matches("\n1. Ra8# 1-0\n").count(), 2, "{pgn}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resigning_stopping_and_a_fallen_flag() {
    let mut s = play(&["black", "--tc", "10+0"]);
    // Ferrum, at full strength with ten minutes, thinks until told to move.
    s.until(|l| l.contains("Ferrum is thinking"));
    s.send("e5");
    s.until(|l| l.contains("'stop' or Enter makes it move now"));
    s.send("");
    s.until(|l| l.contains("Ferrum plays 1."));
    s.until(|l| l.contains("Black to move"));
    s.send("flip");
    let rows = s.until(|l| l.contains("Black to move"));
    assert!(
        rows.iter().any(|l| l.starts_with(" 8 ")),
        "White below again: {rows:?}"
    );
    s.send("resign");
    expect_end(&s, "Game over: 1-0 (You resigned)");

    // Two seconds for the game: the person's flag falls while they wait.
    let s = play(&["white", "--tc", "0.03+0"]);
    expect_end(&s, "Game over: 0-1 (You lost on time)");
}

#[test]
fn bad_settings_are_reported() {
    for (args, message) in [
        (vec!["play", "--tc", "fast"], "'fast' is not a time control"),
        (vec!["play", "--fen", "8/8/8/8 w - - 0 1"], "invalid FEN"),
        (
            vec!["play", "--elo", "900"],
            "Elo 900 is outside 1000 to 2800",
        ),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ferrum"))
            .args(&args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(text.contains(message), "{args:?}: {text}");
    }
}

#[test]
fn the_console_plays_a_game_and_comes_back() {
    let mut s = Session::start(&[]);
    s.send("play purple");
    let reply = s.until(|l| l.contains("error"));
    assert!(
        reply.last().unwrap().contains("'purple' is not a side"),
        "{reply:?}"
    );
    s.send("play black tc none elo 1000");
    s.until(|l| l.contains("you play Black against Ferrum (Elo 1000), no clock"));
    s.until(|l| l.contains("Ferrum plays 1."));
    s.send("resign");
    s.until(|l| l.contains("Game over: 1-0 (You resigned)"));
    s.send("quit");
    s.until(|l| l.contains("back in the console"));
    s.send("perft 2");
    assert_eq!(
        s.until(|l| l.starts_with("nodes")).last().unwrap(),
        "nodes 400"
    );
}
