//! Every reader of outside files and lines (`fuzzing/readers.rs`: what each does with an
//! input, and its valid inputs), fed mutated copies of valid input: bits flipped, bytes
//! overwritten, inserted and deleted, runs repeated, the input cut short or spliced with
//! another. The mutations are drawn from a seed, so a failure repeats; `fuzz/` runs the
//! same readers coverage-guided under libFuzzer.
//!
//! CI runs a short form (`ITERATIONS` inputs a reader). The long form, a million a reader:
//!
//!     FERRUM_FUZZ_INPUTS=1000000 cargo test --test fuzz_readers
//!
//! with `FERRUM_FUZZ_SEED=N` for another stream, and `FERRUM_FUZZ_TRACE=1` to print each
//! input before it is read (the last one printed is the one that hangs). An input that
//! ever failed belongs in `REGRESSIONS`, run first by every test.

#[path = "fuzzing/readers.rs"]
mod readers;

use ferrum::board::Board;
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

/// Runs `fuzz` on one of `readers::READERS` with its seeds.
fn fuzz_reader(name: &str) {
    let (_, read) = readers::READERS
        .iter()
        .find(|(n, _)| *n == name)
        .expect("a reader of that name");
    fuzz(name, readers::seeds(name), read);
}

#[test]
fn fen_and_epd_lines() {
    fuzz_reader("fen");
}

#[test]
fn moves_in_san_and_coordinates() {
    fuzz_reader("move");
}

#[test]
fn pgn_files() {
    fuzz_reader("pgn");
}

#[test]
fn polyglot_books() {
    fuzz_reader("book");
}

#[test]
fn network_files() {
    fuzz_reader("network");
}

#[test]
fn learn_files() {
    fuzz_reader("learn");
}

#[test]
fn training_data() {
    fuzz_reader("data");
}

#[test]
fn protocol_lines_and_option_values() {
    fuzz_reader("protocol");
}

/// Syzygy paths (the SyzygyPath option's value) and table files. The prober keeps its
/// tables in global state, so both run in this one test, one after the other. A damaged
/// table is either left out when opened (its layout does not fit the file) or probed:
/// every position of its material, WDL and the root's DTZ, without a fault.
#[test]
fn syzygy_paths_and_tables() {
    use ferrum::tablebase::Tablebases;
    fuzz_reader("syzygy-path");
    let data = readers::syzygy_dir();

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
