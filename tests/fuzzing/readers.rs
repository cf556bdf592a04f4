//! What each fuzzed reader does with one input, and the valid inputs it starts from: one
//! definition for the seeded mutations of `tests/fuzz_readers.rs` (CI) and for the
//! coverage-guided libFuzzer targets of `fuzz/` (nightly, `cargo fuzz`). A reader may
//! refuse an input, never panic or hang; what it accepts it can use (a book's moves looked
//! up, a network's evaluation taken, a game's positions replayed).

use ferrum::board::{Board, START_FEN};
use ferrum::book::Book;
use ferrum::calibration::Calibration;
use ferrum::formats::{bullet, viri};
use ferrum::nnue::Network;
use ferrum::rules::Notation;
use ferrum::tools::epd::Epd;
use ferrum::tools::pgn::PgnReader;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

/// What a reader does with one input.
pub type Read = fn(&[u8]);

/// The readers by name, each with what it does with an input.
pub const READERS: &[(&str, Read)] = &[
    ("fen", fen),
    ("move", moves),
    ("pgn", pgn),
    ("book", book),
    ("network", network),
    ("learn", learn),
    ("data", data),
    ("protocol", protocol),
    ("syzygy-path", syzygy_path),
];

/// FEN and EPD lines: what is accepted round-trips and has moves to look at.
pub fn fen(input: &[u8]) {
    let text = String::from_utf8_lossy(input);
    if let Ok(board) = Board::from_fen(&text) {
        assert!(Board::from_fen(&board.to_fen()).is_ok(), "{text}");
        let _ = ferrum::movegen::legal_moves(&board);
    }
    if let Ok(epd) = Epd::parse(&text) {
        let _ = (epd.id(), epd.operands("bm"));
    }
}

/// The position moves are read in: castling both ways, promotions, en passant nearby.
const MOVE_FEN: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Moves in coordinates and SAN: whatever is accepted is a legal move.
pub fn moves(input: &[u8]) {
    let board = Board::from_fen(MOVE_FEN).expect("a valid position");
    let text = String::from_utf8_lossy(input);
    let parsed = [
        board.parse_move(&text),
        board.parse_san(&text),
        board.parse_any_move(&text),
    ];
    for m in parsed.into_iter().flatten() {
        assert!(ferrum::movegen::legal_moves(&board).contains(&m), "{text}");
    }
}

/// PGN files: the games read (at most 50), replayed, and walked as makebook walks them.
pub fn pgn(input: &[u8]) {
    for game in PgnReader::new(input).take(50).flatten() {
        if game.start().is_ok() {
            let _ = game.replay(|_, _| {});
            let _ = ferrum::tools::movetext::walk(&game, |_| {});
        }
    }
}

/// Polyglot books: the moves of the start position looked up.
pub fn book(input: &[u8]) {
    if let Ok(book) = Book::from_bytes(input) {
        let _ = book.moves(&Board::startpos());
    }
}

/// Network files (with their calibration section): the start position evaluated.
pub fn network(input: &[u8]) {
    if let Ok(network) = Network::from_bytes(input) {
        let _ = network.evaluate(&Board::startpos());
    }
    let _ = Calibration::from_bytes(input);
}

/// Learn files.
pub fn learn(input: &[u8]) {
    let _ = ferrum::engine::learn::parse(input);
}

/// Training data: viriformat games replayed, bulletformat records decoded.
pub fn data(input: &[u8]) {
    let mut reader = input;
    while let Ok(Some(game)) = viri::next_game(&mut reader) {
        let _ = game.positions().count();
    }
    for chunk in input.chunks_exact(32) {
        let _ = bullet::from_bytes(chunk.try_into().expect("32 bytes"));
    }
}

/// UCI and XBoard command lines; a `setoption` value that is refused leaves the options
/// as they were.
pub fn protocol(input: &[u8]) {
    use ferrum::comm::uci::Uci;
    use ferrum::comm::xboard::XBoard;
    use ferrum::comm::{Comm, CommIn};
    use ferrum::engine::Options;
    let line = String::from_utf8_lossy(input);
    for command in [Uci.parse(&line), XBoard::default().parse(&line)] {
        if let CommIn::SetOption { name, value } = command {
            let mut options = Options::default();
            if options.set(&name, value.as_deref()).is_err() {
                assert_eq!(options, Options::default(), "{line}");
            }
        }
    }
}

/// A SyzygyPath value: the tables there opened and probed. (The prober keeps its tables
/// in global state: one caller at a time.)
pub fn syzygy_path(input: &[u8]) {
    path_tables();
    let path = String::from_utf8_lossy(input);
    if let Ok(tables) = ferrum::tablebase::Tablebases::open(&path) {
        let board = Board::from_fen("8/8/4k3/8/8/4K3/4R3/8 w - - 0 1").expect("a valid position");
        let _ = tables.probe_wdl(&board);
    }
}

/// The Syzygy tables of the repository.
pub fn syzygy_dir() -> String {
    // The fuzz crate lives in fuzz/, one level below the repository.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = if root.ends_with("fuzz") {
        root.parent().expect("the repository")
    } else {
        root
    };
    root.join("tests/data/syzygy").display().to_string()
}

/// A directory of four tables (KRvK and KPvK, a piece table and a pawn table, WDL and
/// DTZ), made once a process: the paths fuzzed start from it rather than from the 70 files
/// of tests/data/syzygy, since opening a path opens every table in it and the fuzzing runs
/// at the speed of those openings.
pub fn path_tables() -> &'static str {
    static DIR: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join("ferrum-fuzz-syzygy-path");
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        for file in ["KRvK.rtbw", "KRvK.rtbz", "KPvK.rtbw", "KPvK.rtbz"] {
            // Copied beside and renamed: another process may have the table mapped, and
            // a file rewritten in place under a mapping faults it.
            let (to, part) = (
                dir.join(file),
                dir.join(format!("{file}.{}", std::process::id())),
            );
            std::fs::copy(std::path::Path::new(&syzygy_dir()).join(file), &part)
                .and_then(|_| std::fs::rename(&part, &to))
                .expect("the repository's tables");
        }
        dir.display().to_string()
    })
}

fn lines_of(text: &str) -> Vec<Vec<u8>> {
    text.lines().map(|l| l.as_bytes().to_vec()).collect()
}

/// The valid inputs a reader's mutations start from.
pub fn seeds(reader: &str) -> Vec<Vec<u8>> {
    match reader {
        "fen" => {
            let mut seeds = lines_of(include_str!("../../epd/wac-revised.epd"));
            seeds.extend(lines_of(include_str!("../../epd/perft960.epd")).into_iter().take(50));
            seeds.push(START_FEN.as_bytes().to_vec());
            seeds
        }
        "move" => ["e2e4", "O-O-O", "Nxe6", "exd6", "Qxh3", "e1g1", "a7a8q", "Bxf7+"]
            .iter()
            .map(|s| s.as_bytes().to_vec())
            .collect(),
        "pgn" => {
            let more: String = include_str!("../data/openings-1000.pgn")
                .lines()
                .take(120)
                .collect::<Vec<_>>()
                .join("\n");
            vec![include_bytes!("../data/repertoire.pgn").to_vec(), more.into_bytes()]
        }
        "book" => vec![include_bytes!("../data/polyglot-20.bin").to_vec()],
        "network" => {
            // A small network keeps each input cheap; the built-in one's header, with its
            // calibration, is a seed too.
            let mut weights = ChaCha8Rng::seed_from_u64(3);
            let small = ferrum::train::model::Params::random(
                32,
                2,
                ferrum::nnue::Inputs::PLAIN,
                &mut weights,
            )
            .quantise(ferrum::nnue::Activation::SCReLU, 400.0)
            .to_bytes();
            let embedded = ferrum::nnue::embedded().to_bytes();
            vec![small, embedded[..4096].to_vec()]
        }
        // The example of src/engine/learn/file.rs, which the reader takes whole.
        "learn" => vec![
            b"ferrum-learn 1 1\n02e219eda640658f 8 -429 c8b7 1 \
              1rbk2r1/p1pp1p2/4pn2/1B5p/3P4/PPN1P3/2P2PPK/R1B2R2 b - - 0 2 022158ed\n"
                .to_vec(),
        ],
        "data" => {
            let mut board = Board::startpos();
            let mut moves = Vec::new();
            for text in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1"] {
                let m = board.parse_move(text).expect("a legal move");
                moves.push((m, 20));
                board.make_move(m);
            }
            let game = viri::Game {
                start: Board::startpos(),
                moves,
                wdl: 1,
            };
            let record = bullet::record(&board, 15, 0.5).expect("a position to record");
            vec![
                [game.encode(), game.encode()].concat(),
                bullet::to_bytes(&record).to_vec(),
            ]
        }
        "protocol" => [
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
        .collect(),
        "syzygy-path" => {
            let dir = path_tables().to_string();
            [
                dir.clone(),
                format!("{dir}:/no/such/dir"),
                format!("/no/such/dir:{dir}::"),
                format!("{dir}/KRvK.rtbw"),
                "/dev/null".to_string(),
                String::new(),
            ]
            .iter()
            .map(|p| p.as_bytes().to_vec())
            .collect()
        }
        _ => panic!("no reader named {reader}"),
    }
}
