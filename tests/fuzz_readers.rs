//! Every reader of outside files and lines (and the protocols' command lines, with the
//! option values they set), fed mutated copies of valid input: bits
//! flipped, bytes overwritten, inserted and deleted, runs repeated, the input cut short or
//! spliced with another. A reader may refuse an input, never panic or hang; what it
//! accepts it can use (a book's moves looked up, a network's evaluation taken, a game's
//! positions replayed). The mutations are drawn from a seed, so a failure repeats.
//!
//! CI runs a short form (`ITERATIONS` inputs a reader). The long form, a million a reader:
//!
//!     FERRUM_FUZZ_INPUTS=1000000 cargo test --release --test fuzz_readers
//!
//! with `FERRUM_FUZZ_SEED=N` for another stream, and `FERRUM_FUZZ_TRACE=1` to print each
//! input before it is read (the last one printed is the one that hangs). An input that
//! ever failed belongs in `REGRESSIONS`, run first by every test.

use ferrum::board::{Board, START_FEN};
use ferrum::book::Book;
use ferrum::calibration::Calibration;
use ferrum::formats::{bullet, viri};
use ferrum::nnue::Network;
use ferrum::rules::Notation;
use ferrum::tools::epd::Epd;
use ferrum::tools::pgn::PgnReader;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// Inputs a reader in CI.
const ITERATIONS: usize = 3_000;

/// Inputs that once made a reader fail: (reader, input).
const REGRESSIONS: &[(&str, &[u8])] = &[
    // A `}` that closes no comment: the movetext readers looped on it.
    (
        "pgn",
        b"[Event \"x\"]\n\n1. e4 } e5 2. Nf3 4.} bxa6) a6 *\n",
    ),
    // A KRvK WDL table whose header lists a piece that is not the table's: the probe
    // looked for it on the board and indexed past the squares.
    (
        "syzygy KRvK.rtbw",
        b"\x71\xe8\x23\x5d\x31\x00\x6e\xff\x44\x00\x80\x04\x00\x06\x0f\x00\x01\x00\x00\x00\x06\x01\x08\x00\
          \x07\x00\x07\x00\x05\x00\x02\x00\x00\x00\x0a\x00\x04\x40\x00\x03\x30\x00\x00\x00\x00\x02\x20\x00\
          \x05\x50\x00\x00\xf0\xff\x01\x10\x00\x02\xf0\xff\x09\x90\x00\x06\x60\x00\x00\x00\x00\x00\x00\x40\
          \x63\x7a\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\
          \x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\
          \x00\x00\x00\x00\x00\x00\x00\x00\xff\xfe\x61\x25\x55\x7f\xff\xff\xff\x30\x44\x10\x06\xff\xff\xff\
          \xff\xff\xff\xff\xff\xff\xf9\x92\x62\x19\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\
          \x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\
          \x81\xda\x63\xfe\x25\xb9\xed\x66\xf4\x59\x00\x15\x58\xf8\x3c\xa5",
    ),
];

fn iterations() -> usize {
    std::env::var("FERRUM_FUZZ_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(ITERATIONS)
}

fn rng(reader: &str) -> ChaCha8Rng {
    let seed: u64 = std::env::var("FERRUM_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let salt = reader
        .bytes()
        .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
    ChaCha8Rng::seed_from_u64(seed ^ salt)
}

/// A number below `n` (0 for none).
fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

/// A mutated copy of one of `seeds`: one to eight edits of the kinds above.
fn mutate(rng: &mut ChaCha8Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    // Values that readers treat specially: zero, the ends of the integer types, text.
    const SPECIAL: &[u8] = b"\x00\x01\x7f\x80\xff -/0123456789:;KQRBNPkqrbnp\n\r\"{}()[]";
    let mut data = seeds[below(rng, seeds.len())].clone();
    for _ in 0..1 + below(rng, 8) {
        let at = below(rng, data.len() + 1);
        let last = at.min(data.len().saturating_sub(1));
        let special = SPECIAL[below(rng, SPECIAL.len())];
        match below(rng, 8) {
            0 if !data.is_empty() => data[last] ^= 1 << below(rng, 8),
            1 if !data.is_empty() => data[last] = special,
            2 => data.insert(at, special),
            3 if at < data.len() => {
                let end = (at + 1 + below(rng, 16)).min(data.len());
                data.drain(at..end);
            }
            4 => data.truncate(at),
            5 if at < data.len() => {
                let end = (at + 1 + below(rng, 32)).min(data.len());
                let run = data[at..end].to_vec();
                for _ in 0..1 + below(rng, 4) {
                    data.splice(at..at, run.iter().copied());
                }
            }
            6 => {
                let other = &seeds[below(rng, seeds.len())];
                let tail = other[below(rng, other.len())..].to_vec();
                data.truncate(at);
                data.extend(tail);
            }
            7 if !data.is_empty() => {
                let bytes = rng.next_u64().to_le_bytes();
                let n = (data.len() - last).min(8);
                data[last..last + n].copy_from_slice(&bytes[..n]);
            }
            _ => data.push(special),
        }
    }
    data
}

/// Runs `read` on the regressions of `reader`, then on `iterations()` mutated inputs. A
/// reader that hangs stops the test there (run it with `FERRUM_FUZZ_TRACE=1` to see on
/// what).
fn fuzz(reader: &str, seeds: Vec<Vec<u8>>, read: impl Fn(&[u8])) {
    fuzz_n(reader, seeds, iterations(), read);
}

/// `fuzz` with `count` inputs (for readers whose inputs are slow to use).
fn fuzz_n(reader: &str, seeds: Vec<Vec<u8>>, count: usize, read: impl Fn(&[u8])) {
    for (_, input) in REGRESSIONS.iter().filter(|(r, _)| *r == reader) {
        read(input);
    }
    let mut rng = rng(reader);
    let trace = std::env::var_os("FERRUM_FUZZ_TRACE").is_some();
    for n in 0..count {
        let input = mutate(&mut rng, &seeds);
        if trace {
            eprintln!("{reader} input {n}: {:?}", String::from_utf8_lossy(&input));
        }
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| read(&input)));
        assert!(
            caught.is_ok(),
            "{reader} panicked on the input (add it to REGRESSIONS): {input:?}"
        );
    }
}

fn lines_of(text: &str) -> Vec<Vec<u8>> {
    text.lines().map(|l| l.as_bytes().to_vec()).collect()
}

#[test]
fn fen_and_epd_lines() {
    let mut seeds = lines_of(include_str!("../epd/wac-revised.epd"));
    seeds.extend(
        lines_of(include_str!("../epd/perft960.epd"))
            .into_iter()
            .take(50),
    );
    seeds.push(START_FEN.as_bytes().to_vec());
    fuzz("fen", seeds, |input| {
        let text = String::from_utf8_lossy(input);
        if let Ok(board) = Board::from_fen(&text) {
            // What is accepted round-trips and has moves to look at.
            assert!(Board::from_fen(&board.to_fen()).is_ok(), "{text}");
            let _ = ferrum::movegen::legal_moves(&board);
        }
        if let Ok(epd) = Epd::parse(&text) {
            let _ = (epd.id(), epd.operands("bm"));
        }
    });
}

#[test]
fn moves_in_san_and_coordinates() {
    let board =
        Board::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let seeds: Vec<Vec<u8>> = [
        "e2e4", "O-O-O", "Nxe6", "exd6", "Qxh3", "e1g1", "a7a8q", "Bxf7+",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    fuzz("move", seeds, |input| {
        let text = String::from_utf8_lossy(input);
        let parsed = [
            board.parse_move(&text),
            board.parse_san(&text),
            board.parse_any_move(&text),
        ];
        for m in parsed.into_iter().flatten() {
            assert!(ferrum::movegen::legal_moves(&board).contains(&m), "{text}");
        }
    });
}

#[test]
fn pgn_files() {
    let games = include_str!("data/repertoire.pgn");
    let more: String = include_str!("data/openings-1000.pgn")
        .lines()
        .take(120)
        .collect::<Vec<_>>()
        .join("\n");
    fuzz(
        "pgn",
        vec![games.as_bytes().to_vec(), more.into_bytes()],
        |input| {
            for game in PgnReader::new(input).take(50).flatten() {
                if game.start().is_ok() {
                    let _ = game.replay(|_, _| {});
                    let _ = ferrum::tools::movetext::walk(&game, |_| {});
                }
            }
        },
    );
}

#[test]
fn polyglot_books() {
    let seeds = vec![include_bytes!("data/polyglot-20.bin").to_vec()];
    let start = Board::startpos();
    fuzz("book", seeds, |input| {
        if let Ok(book) = Book::from_bytes(input) {
            let _ = book.moves(&start);
        }
    });
}

#[test]
fn network_files() {
    // A small network keeps each input cheap; the built-in one's header, with its
    // calibration, is a seed too.
    let mut weights = ChaCha8Rng::seed_from_u64(3);
    let small =
        ferrum::train::model::Params::random(32, 2, ferrum::nnue::Inputs::PLAIN, &mut weights)
            .quantise(ferrum::nnue::Activation::SCReLU, 400.0)
            .to_bytes();
    let embedded = ferrum::nnue::embedded().to_bytes();
    let board = Board::startpos();
    fuzz("network", vec![small, embedded[..4096].to_vec()], |input| {
        if let Ok(network) = Network::from_bytes(input) {
            let _ = network.evaluate(&board);
        }
        let _ = Calibration::from_bytes(input);
    });
}

#[test]
fn learn_files() {
    // The example of src/engine/learn/file.rs, which the reader takes whole.
    let seeds = vec![
        b"ferrum-learn 1 1\n02e219eda640658f 8 -429 c8b7 1 \
          1rbk2r1/p1pp1p2/4pn2/1B5p/3P4/PPN1P3/2P2PPK/R1B2R2 b - - 0 2 022158ed\n"
            .to_vec(),
    ];
    fuzz("learn", seeds, |input| {
        let _ = ferrum::engine::learn::parse(input);
    });
}

#[test]
fn training_data() {
    let mut board = Board::startpos();
    let mut moves = Vec::new();
    for text in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1"] {
        let m = board.parse_move(text).unwrap();
        moves.push((m, 20));
        board.make_move(m);
    }
    let game = viri::Game {
        start: Board::startpos(),
        moves,
        wdl: 1,
    };
    let bytes = [game.encode(), game.encode()].concat();
    let record = bullet::to_bytes(&bullet::record(&board, 15, 0.5).unwrap()).to_vec();
    fuzz("data", vec![bytes, record], |input| {
        let mut reader = input;
        while let Ok(Some(game)) = viri::next_game(&mut reader) {
            let _ = game.positions().count();
        }
        for chunk in input.chunks_exact(32) {
            let _ = bullet::from_bytes(chunk.try_into().unwrap());
        }
    });
}

#[test]
fn protocol_lines_and_option_values() {
    use ferrum::comm::uci::Uci;
    use ferrum::comm::xboard::XBoard;
    use ferrum::comm::{Comm, CommIn};
    use ferrum::engine::Options;
    let seeds: Vec<Vec<u8>> = [
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5",
        "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 moves e1g1",
        "go wtime 60000 btime 59000 winc 1000 binc 1000 movestogo 40 searchmoves e2e4 d2d4",
        "go depth 12 nodes 100000 mate 3 movetime 500 ponder infinite",
        "setoption name Move Overhead value 30",
        "setoption name SyzygyPath value /a:/b",
        "setoption name UCI_Elo value 1500",
        "protover 2",
        "level 40 5:30 0.1",
        "time 30000",
        "setboard 8/8/4k3/8/8/4K3/4P3/8 w - - 0 1",
        "usermove e2e4",
        "option Hash=64",
        "st 10",
    ]
    .iter()
    .map(|l| l.as_bytes().to_vec())
    .collect();
    let (uci, xboard) = (Uci, XBoard::default());
    fuzz("protocol", seeds, |input| {
        let line = String::from_utf8_lossy(input);
        for command in [uci.parse(&line), xboard.parse(&line)] {
            // A rejected value leaves the options as they were.
            if let CommIn::SetOption { name, value } = command {
                let mut options = Options::default();
                if options.set(&name, value.as_deref()).is_err() {
                    assert_eq!(options, Options::default(), "{line}");
                }
            }
        }
    });
}

/// Syzygy paths (the SyzygyPath option's value) and table files. The prober keeps its
/// tables in global state, so both run in this one test, one after the other. A damaged
/// table is either left out when opened (its layout does not fit the file) or probed:
/// every position of its material, WDL and the root's DTZ, without a fault.
#[test]
fn syzygy_paths_and_tables() {
    use ferrum::tablebase::Tablebases;
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
    let paths: Vec<Vec<u8>> = [
        data.to_string(),
        format!("{data}:/no/such/dir"),
        format!("/no/such/dir:{data}::"),
        format!("{data}/KRvK.rtbw"),
        "/dev/null".to_string(),
        "".to_string(),
    ]
    .iter()
    .map(|p| p.as_bytes().to_vec())
    .collect();
    fuzz("syzygy path", paths, |input| {
        let path = String::from_utf8_lossy(input);
        if let Ok(tables) = Tablebases::open(&path) {
            let board = Board::from_fen("8/8/4k3/8/8/4K3/4R3/8 w - - 0 1").unwrap();
            let _ = tables.probe_wdl(&board);
        }
    });

    // The positions a damaged KRvK or KQvK table is probed in: a spread of king and piece
    // squares, both sides to move.
    let positions = |piece: char| -> Vec<Board> {
        let mut boards = Vec::new();
        for (wk, bk, p) in (0..64)
            .step_by(3)
            .flat_map(|wk| [0, 27, 63].map(move |bk| (wk, bk, (wk * 7 + 11) % 64)))
        {
            let mut squares = ['.'; 64];
            if wk == bk || wk == p || bk == p {
                continue;
            }
            squares[wk] = 'K';
            squares[bk] = 'k';
            squares[p] = piece;
            let rows: Vec<String> = squares
                .chunks(8)
                .rev()
                .map(|row| {
                    let mut text = String::new();
                    let mut empty = 0;
                    for &c in row {
                        if c == '.' {
                            empty += 1;
                        } else {
                            if empty > 0 {
                                text += &empty.to_string();
                                empty = 0;
                            }
                            text.push(c);
                        }
                    }
                    if empty > 0 {
                        text += &empty.to_string();
                    }
                    text
                })
                .collect();
            for side in ["w", "b"] {
                if let Ok(board) = Board::from_fen(&format!("{} {side} - - 0 1", rows.join("/"))) {
                    boards.push(board);
                }
            }
        }
        boards
    };
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fuzz-syzygy");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, piece) in [("KRvK", 'R'), ("KQvK", 'Q')] {
        let boards = positions(piece);
        for ext in ["rtbw", "rtbz"] {
            let file = format!("{name}.{ext}");
            let seed = std::fs::read(format!("{data}/{file}")).unwrap();
            // The other file of the pair, intact, beside the damaged one.
            let other = if ext == "rtbw" { "rtbz" } else { "rtbw" };
            std::fs::copy(
                format!("{data}/{name}.{other}"),
                dir.join(format!("{name}.{other}")),
            )
            .unwrap();
            let path = dir.to_str().unwrap().to_string();
            fuzz_n(
                &format!("syzygy {file}"),
                vec![seed],
                iterations() / 10,
                |input| {
                    std::fs::write(dir.join(&file), input).unwrap();
                    if let Ok(tables) = Tablebases::open(&path) {
                        for board in &boards {
                            let _ = tables.probe_wdl(board);
                            let _ = tables.probe_root(board);
                        }
                    }
                },
            );
            std::fs::remove_file(dir.join(&file)).unwrap();
            std::fs::remove_file(dir.join(format!("{name}.{other}"))).unwrap();
        }
    }
}
