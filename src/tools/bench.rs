//! `ferrum bench`: a fixed-depth search of 50 varied positions with one thread and a fresh
//! 16 MiB table for each. The total node count is the engine's signature: it changes exactly
//! when search or evaluation behaviour changes, and is the same on every machine.

use crate::board::Board;
use crate::search::{Limits, SearchOptions, Session, Signals};
use std::io::Write;
use std::time::{Duration, Instant};

/// The positions, one FEN per line (`epd/bench.epd`, built into the binary).
pub const POSITIONS: &str = include_str!("../../epd/bench.epd");
pub const DEFAULT_DEPTH: i32 = 13;
const HASH_MB: usize = 16;

/// Searches every position to `depth`, printing a line each and then the signature line
/// `<nodes> nodes <nps> nps`, the speed over the searches alone (clearing the table for
/// each position is left out). Returns the total nodes.
pub fn run(depth: i32, out: &mut impl Write) -> u64 {
    run_with(depth, SearchOptions::default(), out)
}

/// A session as bench searches with: the engine's defaults and bench's table. The
/// criterion benchmarks search with it too, so that they measure the search a user runs.
pub fn session(options: SearchOptions) -> Session {
    Session::new(HASH_MB, options)
}

/// `run` with other options: Syzygy tables (the 39 middlegames search the same nodes as
/// without, no table applies; the endgames from position 40 on reach the tables), the
/// network.
pub fn run_with(depth: i32, options: SearchOptions, out: &mut impl Write) -> u64 {
    let mut session = session(options);
    let mut searching = Duration::ZERO;
    let mut total = 0;
    let (mut probes, mut hits) = (0, 0);
    for (i, fen) in POSITIONS.lines().enumerate() {
        let Ok(board) = Board::from_fen(fen) else {
            let _ = writeln!(out, "position {}: invalid FEN {fen}", i + 1);
            continue;
        };
        session.clear();
        let start = Instant::now();
        let result = session.run(
            &board,
            &Limits::depth(depth),
            &Signals::default(),
            &mut |_| {},
        );
        searching += start.elapsed();
        total += result.nodes;
        if let Some(data) = session.thread_data().first() {
            probes += data.eval.pawns.probes;
            hits += data.eval.pawns.hits;
        }
        let best = result
            .best
            .map_or("(none)".to_string(), |m| board.move_to_uci(m));
        let _ = writeln!(
            out,
            "position {:2}: bestmove {best:6} nodes {:9}  {fen}",
            i + 1,
            result.nodes
        );
    }
    let _ = writeln!(
        out,
        "pawn table: {:.1}% of {probes} probes found their structure",
        100.0 * hits as f64 / probes.max(1) as f64
    );
    let nps = (total as f64 / searching.as_secs_f64().max(1e-9)) as u64;
    let _ = writeln!(out, "{total} nodes {nps} nps");
    total
}
