//! Training data: Ferrum's viriformat and bulletformat against the crates that define the
//! formats (`viriformat`, `bulletformat`), byte for byte; `ferrum data` statistics,
//! conversion and shuffling; damaged files reported, not panicked on.

use ferrum::board::Board;
use ferrum::formats::{bullet, viri};
use ferrum::search::{SearchOptions, Session};
use ferrum::tools::data::{self, Kind};
use ferrum::tools::datagen::{self, Config};
use ferrum::types::{Color, Square};
use std::path::PathBuf;
use viriformat::chess::board::Board as ViriBoard;
use viriformat::dataformat::Game as ViriGame;

/// The crate's board of a FEN.
fn viri_board(fen: &str, chess960: bool) -> Result<ViriBoard, String> {
    let mut board = ViriBoard::new();
    board
        .set_from_fen(fen, chess960)
        .map_err(|e| e.to_string())?;
    Ok(board)
}

fn tmp(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// A few short self-play games (castling, captures, promotions and en passant among
/// their moves).
fn games(seed: u64, count: u64) -> Vec<viri::Game> {
    games_with(seed, count, 0)
}

/// The same with `dfrc_percent` of them from Double Fischer Random positions.
fn games_with(seed: u64, count: u64, dfrc_percent: u32) -> Vec<viri::Game> {
    let config = Config {
        nodes: 600,
        seed,
        dfrc_percent,
        ..Config::default()
    };
    let mut session = Session::new(4, SearchOptions::default());
    (0..count)
        .map(|n| datagen::play_game(&config, seed, n, &mut session))
        .collect()
}

/// The crate's encoding of a game that Ferrum played.
fn crate_bytes(game: &viri::Game) -> Vec<u8> {
    let chess960 = game.start.is_chess960();
    let mut board = viri_board(&game.start.to_fen(), chess960).unwrap();
    let mut theirs = ViriGame::new(&board);
    let mut ours = game.start.clone();
    for &(m, score) in &game.moves {
        let mv = board.parse_uci(&ours.move_to_uci(m)).unwrap();
        theirs.add_move(mv, score);
        board.make_move_simple(mv);
        ours.make_move(m);
    }
    let mut bytes = serialised(&theirs);
    bytes[30] = game.wdl;
    bytes
}

/// The crate's bytes of a game.
fn serialised(game: &ViriGame) -> Vec<u8> {
    let mut bytes = Vec::new();
    game.serialise_into(&mut bytes).unwrap();
    bytes
}

#[test]
fn games_encode_as_the_viriformat_crate_does() {
    let mut moves = 0;
    let (mut castles, mut promotions, mut en_passant) = (0, 0, 0);
    for game in games(7, 12) {
        let ours = game.encode();
        assert_eq!(ours, crate_bytes(&game), "{}", game.start.to_fen());
        let back = viri::next_game(&mut &ours[..]).unwrap().unwrap();
        assert_eq!(back.moves, game.moves);
        assert_eq!(back.start.to_fen(), game.start.to_fen());
        assert_eq!(back.wdl, game.wdl);
        for &(m, _) in &game.moves {
            moves += 1;
            castles += usize::from(m.is_castle());
            promotions += usize::from(m.promotion().is_some());
            en_passant += usize::from(m.is_en_passant());
        }
    }
    assert!(moves > 500, "{moves}");
    assert!(
        castles > 0 && promotions > 0,
        "{castles} {promotions} {en_passant}"
    );
}

/// Double Fischer Random games: the crate's bytes (unmoved rooks as castling rooks,
/// king-takes-rook castling), and read back to the same start and moves.
#[test]
fn dfrc_games_encode_as_the_viriformat_crate_does() {
    let (mut castles, mut shuffled) = (0, 0);
    for game in games_with(5, 12, 100) {
        assert!(game.start.is_chess960());
        let ours = game.encode();
        assert_eq!(ours, crate_bytes(&game), "{}", game.start.to_fen());
        let back = viri::next_game(&mut &ours[..]).unwrap().unwrap();
        assert_eq!(back.moves, game.moves, "{}", game.start.to_fen());
        assert_eq!(back.wdl, game.wdl);
        let mut start = back.start.clone();
        start.set_chess960(true);
        assert_eq!(start.to_fen(), game.start.to_fen());
        assert_eq!(
            back.start.castling().to_string(),
            game.start.castling().to_string()
        );
        // Replayed, the boards agree move for move, castling rights included.
        for ((a, _, _), (b, _, _)) in back.positions().zip(game.positions()) {
            assert_eq!(a.occupied(), b.occupied());
            assert_eq!(a.castling().to_string(), b.castling().to_string());
            assert_eq!(a.key(), b.key(), "{}", b.to_fen());
        }
        castles += game.moves.iter().filter(|(m, _)| m.is_castle()).count();
        // Castling rooks off the corners: a first rank other than the standard one.
        shuffled += usize::from(game.start.to_fen().split(' ').nth(2) != Some("HAha"));
    }
    assert!(castles > 0, "no castling in 12 DFRC games");
    assert!(shuffled > 0);
}

/// Double Fischer Random shards through `convert`: each record is the board of the game
/// the generator played, as the `bulletformat` crate makes it.
#[test]
fn dfrc_shards_convert_to_the_boards_played() {
    let dir = tmp("data-dfrc");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let played = games_with(6, 4, 100);
    let shard = dir.join("dfrc.vf");
    std::fs::write(
        &shard,
        played.iter().flat_map(|g| g.encode()).collect::<Vec<u8>>(),
    )
    .unwrap();
    let converted = dir.join("dfrc.bf");
    let (read, written) = data::convert(std::slice::from_ref(&shard), &converted, true).unwrap();
    let positions: u64 = played.iter().map(|g| g.moves.len() as u64).sum();
    assert_eq!((read, written), (positions, positions));
    let bytes = std::fs::read(&converted).unwrap();
    let mut records = bytes.chunks_exact(bullet::RECORD);
    for game in &played {
        let mut theirs = viri_board(&game.start.to_fen(), true).unwrap();
        for (board, m, score) in game.positions() {
            let record = records.next().unwrap();
            let expected = theirs.to_bulletformat(game.wdl, score).unwrap();
            assert_eq!(
                record,
                &bullet::to_bytes(&expected)[..],
                "{}",
                board.to_fen()
            );
            // The pieces as the side to move sees them, square by square.
            let position = bullet::from_bytes(record.try_into().unwrap()).unwrap();
            let flip = if board.side_to_move() == Color::Black {
                56
            } else {
                0
            };
            for (kind, ours, sq) in bullet::pieces(&position) {
                let square = Square::from_index(sq ^ flip).unwrap();
                let piece = board.piece_at(square).unwrap();
                assert_eq!(piece.kind().index(), kind, "{}", board.to_fen());
                assert_eq!(piece.color() == board.side_to_move(), ours);
            }
            assert_eq!(position.occ.count_ones(), board.occupied().count());
            theirs.make_move_simple(theirs.parse_uci(&board.move_to_uci(m)).unwrap());
        }
    }
    assert!(records.next().is_none());
    let stats = data::stats(std::slice::from_ref(&shard)).unwrap();
    assert_eq!((stats.games, stats.positions), (4, positions));
}

/// Positions with every kind of castling right (Chess960 too) and en-passant squares.
#[test]
fn positions_encode_as_marlinformat_does() {
    for path in ["epd/perft.epd", "epd/perft960.epd"] {
        let chess960 = path.contains("960");
        for line in std::fs::read_to_string(path).unwrap().lines() {
            let fen = line.split(';').next().unwrap().trim();
            let mut board = Board::from_fen(fen).unwrap();
            board.set_chess960(chess960);
            let theirs = viri_board(fen, chess960).unwrap();
            let expected = serialised(&ViriGame::new(&theirs));
            let ours = viri::encode_position(&board, 0, 0);
            assert_eq!(&ours[..], &expected[..viri::HEADER], "{fen}");
            let (back, _, _) = viri::decode_position(&ours).unwrap();
            assert_eq!(back.occupied(), board.occupied(), "{fen}");
            assert_eq!(back.castling(), board.castling(), "{fen}");
            assert_eq!(back.en_passant(), board.en_passant(), "{fen}");
        }
    }
}

#[test]
fn positions_convert_as_bulletformat_does() {
    for game in games(9, 4) {
        let result = f32::from(game.wdl) / 2.0;
        let mut theirs = viri_board(&game.start.to_fen(), false).unwrap();
        for (board, m, score) in game.positions() {
            let ours = bullet::to_bytes(&bullet::record(&board, score, result).unwrap());
            let expected = theirs.to_bulletformat(game.wdl, score).unwrap();
            assert_eq!(ours, bullet::to_bytes(&expected), "{}", board.to_fen());
            assert_eq!(bullet::from_bytes(&ours).unwrap(), expected);
            theirs.make_move_simple(theirs.parse_uci(&board.move_to_uci(m)).unwrap());
        }
    }
}

/// Datagen's shards through `convert`, `shuffle` and `stats`: the quiet positions are the
/// tuner's lines, shuffling keeps each position once, and the order follows the seed.
#[test]
fn convert_shuffle_and_stats() {
    let dir = tmp("data-tools");
    let _ = std::fs::remove_dir_all(&dir);
    let config = Config {
        format: datagen::Format::Viri,
        output: dir.join("shards"),
        games: Some(3),
        threads: 2,
        nodes: 800,
        seed: 40,
        ..Config::default()
    };
    let summary = datagen::run(&config, &mut std::io::sink()).unwrap();
    assert_eq!(summary.games, 6);
    let mut quiet_lines = 0;
    for seed in [40, 41] {
        let bytes = std::fs::read(datagen::shard_path(&config.output, seed)).unwrap();
        let mut reader = &bytes[..];
        while let Some(game) = viri::next_game(&mut reader).unwrap() {
            quiet_lines += datagen::text_lines(&game).len() as u64;
        }
    }
    let converted = dir.join("all.bf");
    let (read, written) =
        data::convert(std::slice::from_ref(&config.output), &converted, false).unwrap();
    assert_eq!((read, written), (summary.positions, quiet_lines));
    assert_eq!(Kind::of(&converted), Kind::Bullet);

    let stats = data::stats(std::slice::from_ref(&config.output)).unwrap();
    assert_eq!(stats.games, 6);
    assert_eq!((stats.positions, stats.quiet), (read, written));
    assert_eq!(stats.results.iter().sum::<u64>(), written);
    assert_eq!(stats.scores.iter().sum::<u64>(), written);
    assert_eq!(stats.pieces.iter().sum::<u64>(), written);
    assert_eq!(stats.phases.iter().sum::<u64>(), written);
    assert_eq!(
        data::stats(std::slice::from_ref(&converted)).unwrap().quiet,
        written
    );

    // Twice the same file: every position twice, kept once.
    let (a, b, c) = (dir.join("a.bf"), dir.join("b.bf"), dir.join("c.bf"));
    let inputs = [converted.clone(), converted.clone()];
    let (read, unique) = data::shuffle(&inputs, &a, 5, false).unwrap();
    assert_eq!(read, 2 * written);
    assert!(
        unique <= written && unique > written / 2,
        "{unique} of {written}"
    );
    data::shuffle(&inputs, &b, 5, false).unwrap();
    data::shuffle(&inputs, &c, 6, false).unwrap();
    let (a, b, c) = (
        std::fs::read(&a).unwrap(),
        std::fs::read(&b).unwrap(),
        std::fs::read(&c).unwrap(),
    );
    assert_eq!(a, b);
    assert_ne!(a, c);
    let sorted = |bytes: &[u8]| {
        let mut records: Vec<&[u8]> = bytes.chunks(bullet::RECORD).collect();
        records.sort();
        records.concat()
    };
    assert_eq!(sorted(&a), sorted(&c));
    let (_, all) = data::shuffle(&inputs, &dir.join("d.bf"), 5, true).unwrap();
    assert_eq!(all, 2 * written);
}

/// The tuner's text converts too, bad lines reported with their numbers.
#[test]
fn text_lines_convert_and_bad_ones_are_reported() {
    let dir = tmp("data-text");
    let _ = std::fs::create_dir_all(&dir);
    let text = dir.join("lines.txt");
    std::fs::write(
        &text,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 35 | 1.0\n\
         not a fen | 1 | 0.5\n\
         rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | x | 0.5\n\
         8/8/8/4k3/8/8/8/KQ6 w - - 0 1 | 900 | 2\n",
    )
    .unwrap();
    let mut samples = Vec::new();
    let (_, problems) = data::visit(&text, &mut |s| samples.push(s.position)).unwrap();
    assert_eq!(samples.len(), 1);
    // Black to move: its view of White's +35 and White's win.
    assert_eq!((samples[0].score, samples[0].result), (-35, 0));
    assert_eq!(problems.len(), 3, "{problems:?}");
    for (problem, line) in problems.iter().zip([2, 3, 4]) {
        assert!(problem.contains(&format!("line {line}:")), "{problem}");
    }
}

/// Cut, damaged and foreign files: an error or warning with the place, never a panic.
#[test]
fn damaged_files_are_reported() {
    let dir = tmp("data-damaged");
    let _ = std::fs::create_dir_all(&dir);
    let game = &games(3, 1)[0];
    let bytes = game.encode();

    let cut = dir.join("cut.vf");
    std::fs::write(&cut, [&bytes[..], &bytes[..bytes.len() - 3]].concat()).unwrap();
    let (games, problems) = data::visit(&cut, &mut |_| {}).unwrap();
    assert_eq!(games, 1);
    assert_eq!(problems.len(), 1);
    assert!(problems[0].contains("game 2") && problems[0].contains("ends inside"));

    let mut bad_move = bytes.clone();
    bad_move[viri::HEADER + 4] ^= 0x3f; // the second move's from-square
    let path = dir.join("bad-move.vf");
    std::fs::write(&path, &bad_move).unwrap();
    let (_, problems) = data::visit(&path, &mut |_| {}).unwrap();
    assert!(problems[0].contains("not legal"), "{problems:?}");

    let mut bad_piece = bytes.clone();
    bad_piece[8] |= 0x7; // piece code 7
    let path = dir.join("bad-piece.vf");
    std::fs::write(&path, &bad_piece).unwrap();
    let (_, problems) = data::visit(&path, &mut |_| {}).unwrap();
    assert!(problems[0].contains("piece code"), "{problems:?}");

    // Random bytes as either binary format.
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let noise: Vec<u8> = (0..100_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    for name in ["noise.vf", "noise.bf"] {
        let path = dir.join(name);
        std::fs::write(&path, &noise).unwrap();
        let (_, problems) = data::visit(&path, &mut |_| {}).unwrap();
        assert!(!problems.is_empty(), "{name}");
    }
    let short = dir.join("short.bf");
    std::fs::write(&short, &noise[..40]).unwrap();
    assert!(data::stats(&[short]).is_ok());
    assert!(data::stats(&[dir.join("missing.vf")]).is_err());
}
