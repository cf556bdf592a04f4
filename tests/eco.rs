//! Opening names through the binary: `ferrum eco` on every line of the built-in set, on
//! known games and transpositions, and on bad input.

use ferrum::board::Board;
use ferrum::rules::Notation;
use ferrum::tools::pgn::PgnReader;
use std::collections::HashMap;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn eco(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .arg("eco")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Written from another thread: the output fills its pipe while the input is still going in.
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    output
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// The position a line of SAN moves leads to, without its move counters.
fn position_of(moves: &str) -> String {
    let mut board = Board::startpos();
    for san in moves.split_whitespace().filter(|t| !t.ends_with('.')) {
        let m = board.parse_san(san).unwrap();
        board.make_move(m);
    }
    let fen = board.to_fen();
    fen.rsplitn(3, ' ').nth(2).unwrap().to_string()
}

/// Each line of the set, played as a game, is named by that line (or by the first line
/// reaching the same position), with its tags written by the binary's PGN writer.
#[test]
fn every_named_line_names_its_own_game() {
    let mut games = String::new();
    let mut expected = Vec::new();
    let mut first_by_position: HashMap<String, (String, String)> = HashMap::new();
    for volume in ["a", "b", "c", "d", "e"] {
        let text = std::fs::read_to_string(format!("src/eco/{volume}.tsv")).unwrap();
        for line in text.lines().skip(1) {
            let [code, name, moves]: [&str; 3] =
                line.split('\t').collect::<Vec<_>>().try_into().unwrap();
            let first = first_by_position
                .entry(position_of(moves))
                .or_insert((code.to_string(), name.to_string()));
            expected.push(first.clone());
            games.push_str(&format!("[Event \"{code}\"]\n\n{moves} *\n\n"));
        }
    }
    assert!(expected.len() >= 3_800);
    let run = eco(&["-"], &games);
    assert!(run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains(&format!(
        "{} games, {} named",
        expected.len(),
        expected.len()
    )));
    let named: Vec<(String, String)> = PgnReader::new(run.stdout.as_slice())
        .map(|g| {
            let g = g.unwrap();
            (
                g.tag("ECO").unwrap().into(),
                g.tag("Opening").unwrap().into(),
            )
        })
        .collect();
    assert_eq!(named.len(), expected.len());
    for (i, (got, want)) in named.iter().zip(&expected).enumerate() {
        assert_eq!(got, want, "line {i}");
    }
}

#[test]
fn known_games_and_transpositions() {
    let pgn = "[Event \"London\"]\n[White \"Anderssen\"]\n[Black \"Kieseritzky\"]\n\
               [Result \"1-0\"]\n\n1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 5. Bxb5 Nf6\n\
               6. Nf3 Qh6 7. d3 Nh5 8. Nh4 Qg5 9. Nf5 c6 10. g4 Nf6 11. Rg1 cxb5 12. h4 Qg6\n\
               13. h5 Qg5 14. Qf3 Ng8 15. Bxf4 Qf6 16. Nc3 Bc5 17. Nd5 Qxb2 18. Bd6 Bxg1\n\
               19. e5 Qxa1+ 20. Ke2 Na6 21. Nxg7+ Kd8 22. Qf6+ Nxf6 23. Be7# 1-0\n\n\
               [Event \"Paris\"]\n[White \"Morphy\"]\n[Black \"Duke Karl / Count Isouard\"]\n\
               [Result \"1-0\"]\n\n1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5\n\
               6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7\n\
               12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n\n\
               [Event \"transposed\"]\n\n1. Nf3 d5 2. c4 e6 3. d4 Nf6 4. Nc3 *\n";
    let run = eco(&["-"], pgn);
    let games: Vec<_> = PgnReader::new(run.stdout.as_slice())
        .map(Result::unwrap)
        .collect();
    let name = |i: usize| {
        format!(
            "{} {}",
            games[i].tag("ECO").unwrap(),
            games[i].tag("Opening").unwrap()
        )
    };
    assert_eq!(
        name(0),
        "C33 King's Gambit Accepted: Bishop's Gambit, Bryan Countergambit"
    );
    assert_eq!(name(1), "C41 Philidor Defense");
    // Reached from the Reti, named as the Queen's Gambit Declined it transposed into.
    assert_eq!(
        name(2),
        "D37 Queen's Gambit Declined: Three Knights Variation"
    );
    // The games come out whole.
    assert_eq!(games[0].moves.len(), 45);
    assert_eq!(games[1].tag("Black"), Some("Duke Karl / Count Isouard"));
}

#[test]
fn positions_lines_and_errors() {
    let line = eco(
        &["--moves", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 h3 h6"],
        "",
    );
    assert_eq!(
        stdout(&line),
        "B90 Sicilian Defense: Najdorf Variation, Adams Attack\n"
    );
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
    assert_eq!(
        stdout(&eco(&["--fen", fen], "")),
        "C40 King's Knight Opening\n"
    );
    let none = eco(&["--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"], "");
    assert_eq!(stdout(&none), "no named opening\n");
    for (args, error) in [
        (vec!["--moves", "e4 e4"], "move e4"),
        (vec!["--fen", "not a fen"], "invalid FEN"),
        (vec!["/no/such.pgn"], "cannot open /no/such.pgn"),
        // Nothing to name: the error shows every way to give it.
        (vec![], "<PGN|--fen <FEN>|--moves <MOVES>>"),
    ] {
        let run = eco(&args, "");
        assert!(!run.status.success());
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(stderr.contains(error), "{stderr}");
    }
}
