//! Runs perft suites in EPD form: `FEN ;D1 20 ;D2 400 ...`, one position per line.

use crate::board::Board;
use crate::movegen::perft;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// One position of a suite with its expected counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    pub line: usize,
    pub fen: String,
    /// (depth, leaves), in the order given.
    pub counts: Vec<(u32, u64)>,
}

/// Which counts to check.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_nodes: u64,
    pub max_depth: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub checked: usize,
    pub failed: usize,
    pub nodes: u64,
}

/// Parses a suite; blank lines and `#` comments are skipped. Errors name the line.
pub fn parse(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let mut parts = raw.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        Board::from_fen(&fen).map_err(|e| format!("line {line}: invalid FEN: {e}"))?;
        let counts = parts
            .map(|op| {
                let op = op.trim();
                let bad = || format!("line {line}: '{op}' is not a count like 'D3 8902'");
                let (depth, nodes) = op
                    .strip_prefix('D')
                    .and_then(|s| s.split_once(' '))
                    .ok_or_else(bad)?;
                Ok((
                    depth.parse().map_err(|_| bad())?,
                    nodes.trim().parse().map_err(|_| bad())?,
                ))
            })
            .collect::<Result<Vec<_>, String>>()?;
        cases.push(PerftCase { line, fen, counts });
    }
    Ok(cases)
}

/// Checks every count within `limits`, sharing the cases among `threads` workers, printing a
/// line per count and a summary.
pub fn run(cases: &[PerftCase], limits: Limits, threads: usize, out: &mut impl Write) -> Summary {
    let threads = threads.clamp(1, 64);
    let start = Instant::now();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for worker in 0..threads {
            let sender = sender.clone();
            scope.spawn(move || {
                for case in cases.iter().skip(worker).step_by(threads) {
                    let Ok(mut board) = Board::from_fen(&case.fen) else {
                        continue;
                    };
                    for &(depth, expected) in &case.counts {
                        if depth > limits.max_depth || expected > limits.max_nodes {
                            continue;
                        }
                        let found = perft(&mut board, depth);
                        let _ = sender.send((case.line, case.fen.clone(), depth, expected, found));
                    }
                }
            });
        }
        drop(sender);
        let mut summary = Summary::default();
        for (line, fen, depth, expected, found) in receiver {
            let verdict = if found == expected { "ok" } else { "FAILED" };
            let _ = writeln!(
                out,
                "{verdict:6} line {line:4} D{depth} {found:>12} expected {expected:>12}  {fen}"
            );
            summary.checked += 1;
            summary.nodes += found;
            if found != expected {
                summary.failed += 1;
            }
        }
        let secs = start.elapsed().as_secs_f64();
        let _ = writeln!(
            out,
            "{} of {} counts correct, {} leaves in {secs:.2} s ({:.1} Mnps)",
            summary.checked - summary.failed,
            summary.checked,
            summary.nodes,
            summary.nodes as f64 / secs.max(1e-9) / 1e6
        );
        summary
    })
}

/// Reads and runs a suite file.
pub fn run_file(
    path: &Path,
    limits: Limits,
    threads: usize,
    out: &mut impl Write,
) -> Result<Summary, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let cases = parse(&text)?;
    Ok(run(&cases, limits, threads, out))
}
