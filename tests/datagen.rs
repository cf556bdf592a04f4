//! `ferrum datagen`: labelled lines in the documented format, only quiet positions, and the
//! same file from the same seed.

use ferrum::board::Board;
use ferrum::tools::datagen::{self, Config};
use std::path::PathBuf;

fn generate(name: &str, seed: u64, games: u64) -> (String, datagen::Summary) {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    let config = Config {
        output: path.clone(),
        games: Some(games),
        nodes: 1_000,
        seed,
        ..Config::default()
    };
    let summary = datagen::run(&config, &mut std::io::sink()).unwrap();
    (std::fs::read_to_string(&path).unwrap(), summary)
}

#[test]
fn lines_are_labelled_quiet_positions() {
    let (text, summary) = generate("datagen-format.txt", 3, 4);
    assert_eq!(summary.games, 4);
    assert_eq!(text.lines().count() as u64, summary.positions);
    assert!(summary.positions > 40, "{summary:?}");
    let mut results = std::collections::HashSet::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 3, "{line}");
        let board = Board::from_fen(fields[0]).unwrap();
        assert!(!board.in_check(), "{line}");
        let score: i32 = fields[1].parse().unwrap();
        assert!(score.abs() < 20_000, "{line}");
        assert!(["1.0", "0.5", "0.0"].contains(&fields[2]), "{line}");
        results.insert(fields[2]);
    }
    // One result per game: the lines of a game share it.
    assert!(results.len() <= 4);
}

#[test]
fn one_thread_and_a_seed_give_the_same_file() {
    let (a, _) = generate("datagen-a.txt", 11, 2);
    let (b, _) = generate("datagen-b.txt", 11, 2);
    let (c, _) = generate("datagen-c.txt", 12, 2);
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn openings_are_read_from_epd_or_fen_lines() {
    let text = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5;\n\n\
                rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2\n";
    let openings = datagen::read_openings(text).unwrap();
    assert_eq!(openings.len(), 2);
    let err = datagen::read_openings("not a position\n").unwrap_err();
    assert!(err.starts_with("line 1:"), "{err}");
}

/// Ctrl-C ends the run after the games in play: every line written is whole, and the
/// summary counts them.
#[cfg(target_os = "linux")]
#[test]
fn interrupt_keeps_whole_games() {
    use std::process::{Command, Stdio};
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("datagen-interrupted.txt");
    let _ = std::fs::remove_file(&path);
    let child = Command::new(env!("CARGO_BIN_EXE_ferrum"))
        .args([
            "datagen", "--format", "text", "--games", "100000", "--nodes", "2000", "-o",
        ])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Interrupt once the first game is written (a slow machine may take a while).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::fs::metadata(&path).map_or(0, |m| m.len()) == 0
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // SAFETY: signalling our own child process.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let summary = String::from_utf8_lossy(&output.stdout);
    let text = std::fs::read_to_string(&path).unwrap();
    let lines = text.lines().count();
    assert!(lines > 0 && text.ends_with('\n'));
    assert!(
        summary.starts_with(&format!("{lines} positions from ")),
        "{summary}"
    );
    for line in text.lines() {
        assert_eq!(line.split(" | ").count(), 3, "{line}");
    }
}

fn viri_config(dir: &str, seed: u64, games: u64) -> Config {
    let output = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(dir);
    Config {
        format: datagen::Format::Viri,
        output,
        games: Some(games),
        nodes: 1_000,
        seed,
        ..Config::default()
    }
}

fn shard(config: &Config) -> Vec<u8> {
    std::fs::read(datagen::shard_path(&config.output, config.seed)).unwrap()
}

/// Games written whole into a shard a seed, read back legal; a shard that was stopped, cut
/// inside a game, or killed goes on to the same bytes as one written in one go.
#[test]
fn viriformat_shards_resume_where_they_stopped() {
    let whole = viri_config("viri-whole", 21, 5);
    let _ = std::fs::remove_dir_all(&whole.output);
    let summary = datagen::run(&whole, &mut std::io::sink()).unwrap();
    assert_eq!(summary.games, 5);
    let expected = shard(&whole);
    let mut reader = &expected[..];
    let mut positions = 0;
    while let Some(game) = ferrum::formats::viri::next_game(&mut reader).unwrap() {
        positions += game.moves.len() as u64;
    }
    assert_eq!(positions, summary.positions);

    // Three games, then two more.
    let parts = viri_config("viri-parts", 21, 3);
    let _ = std::fs::remove_dir_all(&parts.output);
    datagen::run(&parts, &mut std::io::sink()).unwrap();
    let resumed = Config {
        games: Some(5),
        ..parts.clone()
    };
    let summary = datagen::run(&resumed, &mut std::io::sink()).unwrap();
    assert_eq!(summary.games, 2);
    assert_eq!(shard(&resumed), expected);

    // The last game cut short, as a kill during its write leaves it.
    let path = datagen::shard_path(&resumed.output, 21);
    std::fs::write(&path, &expected[..expected.len() - 7]).unwrap();
    datagen::run(&resumed, &mut std::io::sink()).unwrap();
    assert_eq!(shard(&resumed), expected);

    // Threads write shards of their own: seeds 21 and 22.
    let two = Config {
        threads: 2,
        games: Some(2),
        ..viri_config("viri-two", 21, 2)
    };
    let _ = std::fs::remove_dir_all(&two.output);
    datagen::run(&two, &mut std::io::sink()).unwrap();
    let mut reader = &expected[..];
    let first_two: Vec<u8> = (0..2)
        .flat_map(|_| {
            ferrum::formats::viri::next_raw(&mut reader)
                .unwrap()
                .unwrap()
        })
        .collect();
    assert_eq!(shard(&two), first_two);
    assert!(datagen::shard_path(&two.output, 22).exists());
}

/// What cannot be a shard is refused with its name before a game is played: a device (an
/// endless stream of empty games from /dev/zero, a full disk from /dev/full) or a file of
/// something else. No hang, no games written after garbage.
#[cfg(target_os = "linux")]
#[test]
fn a_shard_that_is_not_one_is_an_error() {
    let config = viri_config("viri-not-a-shard", 31, 1);
    let _ = std::fs::remove_dir_all(&config.output);
    std::fs::create_dir_all(&config.output).unwrap();
    let path = datagen::shard_path(&config.output, 31);
    for device in ["/dev/zero", "/dev/full"] {
        let _ = std::fs::remove_file(&path);
        std::os::unix::fs::symlink(device, &path).unwrap();
        let err = datagen::run(&config, &mut std::io::sink()).unwrap_err();
        assert!(err.contains("not a regular file"), "{device}: {err}");
    }
    std::fs::remove_file(&path).unwrap();
    // The shape of a game (a header and the terminator) around a header with no kings.
    std::fs::write(&path, [0u8; 36]).unwrap();
    let err = datagen::run(&config, &mut std::io::sink()).unwrap_err();
    assert!(err.contains("game 1"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), [0u8; 36]);
}

/// `kill -9` at any moment: the shard is read up to its last whole game, and a run with
/// the same arguments ends with the bytes of an uninterrupted run.
#[cfg(target_os = "linux")]
#[test]
fn viriformat_shards_survive_kill_9() {
    use std::process::{Command, Stdio};
    let whole = viri_config("viri-kill-whole", 33, 6);
    let _ = std::fs::remove_dir_all(&whole.output);
    datagen::run(&whole, &mut std::io::sink()).unwrap();
    let expected = shard(&whole);
    let killed = viri_config("viri-kill", 33, 6);
    let _ = std::fs::remove_dir_all(&killed.output);
    let args = |games: u64| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ferrum"));
        // The library's Config and the command line evaluate alike by default.
        cmd.args(["datagen", "--nodes", "1000", "--seed", "33", "--games"])
            .arg(games.to_string())
            .arg("-o")
            .arg(&killed.output)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        cmd
    };
    let path = datagen::shard_path(&killed.output, 33);
    for wait_ms in [150, 400] {
        let mut child = args(6).spawn().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(wait_ms));
        child.kill().unwrap();
        child.wait().unwrap();
        let bytes = std::fs::read(&path).unwrap_or_default();
        assert!(expected.starts_with(&bytes[..bytes.len().min(expected.len())]));
    }
    assert!(args(6).status().unwrap().success());
    assert_eq!(std::fs::read(&path).unwrap(), expected);
}
