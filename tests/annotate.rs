//! `ferrum annotate` as its users see it: evaluations on every move, a blunder marked and
//! a best move not, an illegal move reported with the game still written up to it, the
//! summary lines, `--side`, the graphs, bad input and Ctrl-C. The verdicts' quality on real
//! games is measured by the ignored test at the end (docs/annotate.md).

mod common;

use common::xorshift;
use ferrum::rules::{GameEnd, Notation};
use ferrum::search::{Limits, SearchOptions, Session, Signals};
use ferrum::tools::annotate::analyse::{Settings, analyse};
use ferrum::tools::annotate::judge::Verdict;
use ferrum::tools::pgn::{PgnGame, PgnReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Scholar's mate: 3...Nf6 allows mate in one. Then a queen given away and taken.
const GAMES: &str = r#"[Event "scholar"]
[White "Alice"]
[Black "Bob"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "queen"]
[White "Carol"]
[Black "Dave"]
[Result "1-0"]

1. e4 e5 2. Nf3 Qg5 3. Nxg5 1-0
"#;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ferrum-annotate-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `ferrum annotate` on `pgn` with `args` (small searches); the annotated games, the
/// summary lines and standard error.
fn annotate(pgn: &str, args: &[&str]) -> (String, String, String, Output) {
    let dir = scratch(&format!("{:x}", pgn.len() * 31 + args.len()));
    let (input, output) = (dir.join("in.pgn"), dir.join("out.pgn"));
    std::fs::write(&input, pgn).unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .arg("annotate")
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .args(["--nodes", "20000"])
        .args(args)
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&output).unwrap_or_default();
    let stdout = String::from_utf8_lossy(&run.stdout).to_string();
    let stderr = String::from_utf8_lossy(&run.stderr).to_string();
    (text, stdout, stderr, run)
}

fn games(text: &str) -> Vec<PgnGame> {
    PgnReader::new(text.as_bytes())
        .map(Result::unwrap)
        .collect()
}

#[test]
fn every_move_evaluated_the_blunder_marked_the_best_move_not() {
    let (text, stdout, stderr, run) = annotate(GAMES, &[]);
    assert!(run.status.success(), "{stderr}");
    let out = games(&text);
    assert_eq!(out.len(), 2, "{text}");
    // The same moves, each with its evaluation.
    for (annotated, original) in out.iter().zip(games(GAMES)) {
        assert_eq!(annotated.moves, original.moves);
        assert_eq!(
            annotated.movetext.matches("[%eval ").count(),
            original.moves.len(),
            "{}",
            annotated.movetext
        );
    }
    let flat = |g: &PgnGame| g.movetext.replace('\n', " ");
    let scholar = &flat(&out[0]);
    assert!(scholar.contains("3... Nf6 $4 {"), "{scholar}");
    assert!(scholar.contains("Blunder. "), "{scholar}");
    // After the mate the side to move is mated; the mating move is not judged wrong.
    assert!(scholar.contains("4. Qxf7# { [%eval #0] }"), "{scholar}");
    let queen = &flat(&out[1]);
    assert!(queen.contains("2... Qg5 $4"), "{queen}");
    assert!(queen.contains("3. Nxg5 { [%eval"), "{queen}");
    assert!(!queen.contains("Nxg5 $"), "{queen}");
    // The better line is a variation from the position before the blunder.
    assert!(queen.contains("(2... "), "{queen}");
    // Tags: the opening, the annotator, each side's accuracy.
    assert_eq!(out[0].tag("ECO"), Some("C20"));
    assert!(out[0].tag("Annotator").unwrap().contains("20000 nodes"));
    let black: f64 = out[0].tag("BlackAccuracy").unwrap().parse().unwrap();
    let white: f64 = out[0].tag("WhiteAccuracy").unwrap().parse().unwrap();
    assert!(white > black, "{white} {black}");
    assert!(out[1].tag("BlackAverageLoss").is_some());
    // A summary line a game.
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].starts_with("game 1: Alice - Bob 1-0; White: accuracy "),
        "{stdout}"
    );
    assert!(lines[0].contains("Black: accuracy"), "{stdout}");
    assert!(lines[0].ends_with("1 blunder"), "{stdout}");
    assert!(lines[1].starts_with("game 2: Carol - Dave 1-0"), "{stdout}");
}

#[test]
fn an_illegal_move_is_reported_and_the_game_written_up_to_it() {
    let pgn = format!("{GAMES}\n[Event \"bad\"]\n[Result \"*\"]\n\n1. d4 d5 2. Ke3 Nf6 *\n");
    let (text, stdout, stderr, run) = annotate(&pgn, &["--threads", "2"]);
    assert!(run.status.success(), "{stderr}");
    assert!(
        stderr.contains("game 3: move 2. Ke3 cannot be played"),
        "{stderr}"
    );
    let out = games(&text);
    assert_eq!(out.len(), 3, "{text}");
    assert_eq!(out[2].moves, ["d4", "d5"]);
    assert_eq!(out[2].movetext.matches("[%eval ").count(), 2);
    assert!(
        out[2]
            .movetext
            .replace('\n', " ")
            .contains("2. Ke3 cannot be played")
    );
    // The others are whole, in the order of the file.
    assert_eq!(out[0].tag("Event"), Some("scholar"));
    assert_eq!(out[1].moves.len(), 5);
    assert_eq!(stdout.lines().count(), 3, "{stdout}");
}

#[test]
fn side_filters_the_verdicts() {
    let (text, stdout, stderr, run) = annotate(GAMES, &["--side", "white"]);
    assert!(run.status.success(), "{stderr}");
    let out = games(&text);
    assert!(!out[0].movetext.contains('$'), "{}", out[0].movetext);
    assert!(out[0].tag("BlackAccuracy").is_none());
    assert!(out[0].tag("WhiteAccuracy").is_some());
    assert!(
        !stdout.contains("Black:") && stdout.contains("White:"),
        "{stdout}"
    );
    let (text, stdout, _, _) = annotate(GAMES, &["--side", "black"]);
    assert!(games(&text)[0].movetext.contains("Nf6 $4"));
    assert!(
        stdout.contains("Black:") && !stdout.contains("White:"),
        "{stdout}"
    );
}

/// Tags open and close in order (self-closing ones aside), and the text is one `<svg>`.
fn well_formed(svg: &str) -> Result<(), String> {
    let mut open = Vec::new();
    let mut rest = svg;
    while let Some(at) = rest.find('<') {
        let end = rest[at..].find('>').ok_or("a tag is not closed")? + at;
        let tag = &rest[at + 1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('?') || tag.starts_with('!') || tag.ends_with('/') {
            continue;
        }
        let name = tag.split_whitespace().next().unwrap_or("");
        match name.strip_prefix('/') {
            Some(closed) => {
                if open.pop() != Some(closed.to_string()) {
                    return Err(format!("</{closed}> closes nothing open"));
                }
                if open.is_empty() && !rest.trim().is_empty() {
                    return Err("text after the root element".into());
                }
            }
            None => open.push(name.to_string()),
        }
    }
    match open.is_empty() {
        true => Ok(()),
        false => Err(format!("{open:?} left open")),
    }
}

#[test]
fn an_svg_graph_a_game() {
    let dir = scratch("svg");
    let svg_dir = dir.join("graphs");
    let (_, _, stderr, run) = annotate(GAMES, &["--svg", svg_dir.to_str().unwrap()]);
    assert!(run.status.success(), "{stderr}");
    for name in ["game-0001.svg", "game-0002.svg"] {
        let svg = std::fs::read_to_string(svg_dir.join(name)).unwrap();
        assert!(svg.trim_start().starts_with("<svg"), "{svg}");
        assert_eq!(well_formed(&svg), Ok(()), "{svg}");
        assert!(svg.contains("Blunder"), "the legend names the blunder");
        assert!(svg.contains("<circle"), "the blunder is marked");
    }
    assert!(well_formed("<svg><g></svg></g>").is_err());
}

#[test]
fn bad_input_is_a_clear_error() {
    let run = Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .args(["annotate", "/no/such/file.pgn"])
        .output()
        .unwrap();
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("cannot open /no/such/file.pgn"), "{stderr}");
    let (_, _, stderr, run) = annotate("no games here, only words\n", &[]);
    assert!(!run.status.success());
    assert!(stderr.contains("no PGN games"), "{stderr}");
}

/// Ctrl-C: the searches stop, and the file holds the games finished, whole.
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_leaves_the_games_finished() {
    use std::io::{BufRead, BufReader};
    let dir = scratch("interrupt");
    let (input, output) = (dir.join("in.pgn"), dir.join("out.pgn"));
    // A short game, then long ones that cannot be finished in time.
    let long = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 \
                8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 *";
    let pgn = format!(
        "[Event \"short\"]\n\n1. e4 e5 *\n\n[Event \"long\"]\n\n{long}\n\n[Event \"long\"]\n\n{long}\n"
    );
    std::fs::write(&input, pgn).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .arg("annotate")
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .args(["--time", "5"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // The first game's summary line: it is written. Then Ctrl-C.
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("game 1:"), "{first}");
    // SAFETY: a signal to the child this test started.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let started = std::time::Instant::now();
    let status = child.wait().unwrap();
    assert!(
        started.elapsed().as_secs() < 10,
        "the searches did not stop"
    );
    assert!(!status.success());
    let out = games(&std::fs::read_to_string(&output).unwrap());
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].moves, ["e4", "e5"]);
}

/// With tablebases, a move between positions the tables hold is judged by them: a won
/// ending thrown away by stalemate loses exactly half the points, a winning move none.
#[test]
fn the_tables_judge_endings() {
    let tables = ferrum::tablebase::Tablebases::open(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/syzygy"
    ))
    .unwrap();
    let options = SearchOptions {
        syzygy: Some(ferrum::search::Syzygy::new(std::sync::Arc::new(tables))),
        ..SearchOptions::default()
    };
    let pgn = "[FEN \"k7/8/1K6/8/8/8/7Q/8 w - - 0 1\"]\n\n1. Qc7 *\n\n\
               [FEN \"k7/8/1K6/8/8/8/7Q/8 w - - 0 1\"]\n\n1. Qh7 Kb8 *\n";
    let mut session = Session::new(16, options);
    let settings = Settings {
        limits: Limits::nodes(10_000),
        ..Settings::default()
    };
    let judged: Vec<_> = games(pgn)
        .iter()
        .map(|game| {
            analyse(
                game,
                &settings,
                &mut session,
                &Signals::default(),
                &mut || {},
            )
            .unwrap()
            .unwrap()
            .judged
        })
        .collect();
    let stalemate = judged[0][0].as_ref().unwrap();
    assert!(stalemate.by_table);
    assert_eq!(stalemate.loss, 50.0);
    assert_eq!(stalemate.verdict, Some(Verdict::Blunder));
    // Not the quickest mate, still a win: nothing lost.
    let slow = judged[1][0].as_ref().unwrap();
    assert!(
        slow.by_table && slow.loss == 0.0 && slow.verdict.is_none(),
        "{slow:?}"
    );
}

/// One game's moves: the loss a search `factor` times longer finds, and for the default
/// search backwards and forwards whether it marked the move at all and whether `?` or `??`.
fn compared(game: &PgnGame, factor: u64) -> Vec<(f64, [(bool, bool); 2])> {
    let run = |settings: &Settings| {
        let mut session = Session::new(64, SearchOptions::default());
        analyse(
            game,
            settings,
            &mut session,
            &Signals::default(),
            &mut || {},
        )
        .unwrap()
        .unwrap()
    };
    let quick = Settings::default();
    let reference = run(&Settings {
        limits: Limits::nodes(quick.limits.nodes.unwrap() * factor),
        ..quick.clone()
    });
    let orders = [true, false].map(|backwards| {
        run(&Settings {
            backwards,
            ..quick.clone()
        })
    });
    let marks = |ply: usize, order: usize| {
        let verdict = orders[order].judged[ply].as_ref().and_then(|j| j.verdict);
        (
            verdict.is_some(),
            verdict.is_some_and(|v| v >= Verdict::Mistake),
        )
    };
    (0..reference.moves.len())
        .filter_map(|ply| {
            let truth = reference.judged[ply].as_ref()?;
            Some((truth.loss, [marks(ply, 0), marks(ply, 1)]))
        })
        .collect()
}

/// Games with blunders: the first `count` openings of tests/data/openings-1000.pgn (real
/// games), each played on for 30 plies by a quick search (2,000 nodes a move) that plays a
/// random legal move instead one time in four, from a fixed seed: weak play, whose moves the
/// longer search then grades.
fn blundering_games(count: usize) -> Vec<PgnGame> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/openings-1000.pgn");
    let text = std::fs::read_to_string(path).unwrap();
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut session = Session::new(16, SearchOptions::default());
    games(&text)
        .into_iter()
        .take(count)
        .map(|mut game| {
            let mut board = game.start().unwrap();
            for san in &game.moves {
                board.make_move(board.parse_san(san).unwrap());
            }
            session.clear();
            for _ in 0..30 {
                if board.game_over().is_some() {
                    break;
                }
                let moves = ferrum::movegen::legal_moves(&board);
                let m = if xorshift(&mut seed).is_multiple_of(4) {
                    moves[(xorshift(&mut seed) % moves.len() as u64) as usize]
                } else {
                    let quick = Limits::nodes(2_000);
                    let found = session.run(&board, &quick, &Signals::default(), &mut |_| {});
                    found.best.unwrap()
                };
                game.moves.push(board.move_to_san(m));
                board.make_move(m);
            }
            game
        })
        .collect()
}

/// The floors of docs/annotate.md: the first BLUNDERING games of `blundering_games` (10 by
/// default) and the first GAMES real games of docs/games/uci-elo-2500-60+0.6.pgn (UCI_Elo
/// 2500 play by Ferrum and Stockfish; 0 by default, as they hold almost no blunders), the
/// truth from a search eight times longer: `cargo test --test annotate -- --ignored
/// --nocapture verdicts` (about 20 minutes on two busy cores, 5 minutes more a real game).
#[test]
#[ignore]
fn verdicts_against_a_longer_search() {
    let setting = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(default)
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/games/uci-elo-2500-60+0.6.pgn");
    let text = std::fs::read_to_string(path).unwrap();
    let mut set: Vec<PgnGame> = blundering_games(setting("BLUNDERING", 10));
    set.extend(games(&text).into_iter().take(setting("GAMES", 0)));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let moves: Vec<(f64, [(bool, bool); 2])> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|_| {
                let (games, next) = (&set, &next);
                ferrum::search::spawn_scoped(scope, "measure", move || {
                    let mut seen = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(game) = games.get(i) else { break };
                        seen.extend(compared(game, 8));
                        eprintln!("game {} ({} plies) measured", game.number, game.moves.len());
                    }
                    seen
                })
                .unwrap()
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let big: Vec<_> = moves.iter().filter(|m| m.0 >= 30.0).collect();
    let small: Vec<_> = moves.iter().filter(|m| m.0 < 5.0).collect();
    let mut shares = Vec::new();
    for (order, name) in ["backwards", "forwards"].iter().enumerate() {
        let caught = big.iter().filter(|m| m.1[order].1).count();
        let false_marks = small.iter().filter(|m| m.1[order].0).count();
        let caught_share = 100.0 * caught as f64 / big.len().max(1) as f64;
        let false_share = 100.0 * false_marks as f64 / small.len().max(1) as f64;
        println!(
            "{name}: {} games, {} moves judged; losing >= 30: {caught} of {} marked ? or ?? \
             ({caught_share:.1}%); losing < 5: {false_marks} of {} marked ({false_share:.1}%)",
            set.len(),
            moves.len(),
            big.len(),
            small.len()
        );
        shares.push((caught_share, false_share));
    }
    assert!(shares[0].0 >= 90.0 && shares[0].1 < 5.0, "{shares:?}");
}
