//! `ferrum test`: runs an EPD test suite (WAC, BK, ECM, STS, ...). Each position is searched
//! within the given limits; it is solved when the move found is one of its `bm` moves and
//! none of its `am` moves (in SAN or coordinate notation). Suites that grade moves, as the
//! Strategic Test Suite does with `c0 "Nf3=10, g4=3";`, are also scored in points.

use super::epd::Epd;
use crate::board::Board;
use crate::evaluator::Evaluator;
use crate::rules::Notation;
use crate::search::{Limits, Report, SearchOptions, Session, Signals, Syzygy};
use crate::types::{Move, score_text};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct TestConfig {
    pub limits: Limits,
    /// A position also counts as solved when a `bm` move leads any of the first K lines.
    pub multipv: usize,
    /// Stop a position once the right move has been best for this many iterations running.
    pub early_exit: Option<u32>,
    pub hash_mb: usize,
    pub syzygy: Option<Syzygy>,
    pub evaluator: Evaluator,
    /// Print each position's score and principal variation under its line.
    pub verbose: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TestSummary {
    pub positions: usize,
    pub solved: usize,
    /// Lines that could not be used (bad EPD, no `bm`/`am`, unreadable moves).
    pub skipped: usize,
    /// Points of the moves found, and the most there were to earn, over the positions
    /// that grade moves.
    pub points: u32,
    pub max_points: u32,
    pub nodes: u64,
    pub time: Duration,
}

/// Runs every position of `text`, printing a line each and a summary.
pub fn run(text: &str, config: &TestConfig, out: &mut impl Write) -> TestSummary {
    let signals = Signals::default();
    let options = SearchOptions {
        multipv: config.multipv.max(1),
        syzygy: config.syzygy.clone(),
        evaluator: config.evaluator.clone(),
        ..SearchOptions::default()
    };
    let mut session = Session::new(config.hash_mb, options);
    let mut summary = TestSummary::default();

    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let label = format!("line {}", i + 1);
        let epd = match Epd::parse(line) {
            Ok(epd) => epd,
            Err(e) => {
                let _ = writeln!(out, "{label}: skipped: {e}");
                summary.skipped += 1;
                continue;
            }
        };
        let id = epd.id().unwrap_or(&label).to_string();
        let board = &epd.board;
        let moves = |op: &str| -> Result<Vec<Move>, String> {
            let texts = epd.operands(op).unwrap_or(&[]);
            texts
                .iter()
                .map(|t| board.parse_any_move(t).map_err(|e| e.to_string()))
                .collect()
        };
        let (best, avoid) = match (moves("bm"), moves("am")) {
            (Ok(b), Ok(a)) if !(b.is_empty() && a.is_empty()) => (b, a),
            (Err(e), _) | (_, Err(e)) => {
                let _ = writeln!(out, "{id}: skipped: {e}");
                summary.skipped += 1;
                continue;
            }
            _ => {
                let _ = writeln!(out, "{id}: skipped: no bm or am operation");
                summary.skipped += 1;
                continue;
            }
        };
        let solves = |m: Move| (best.is_empty() || best.contains(&m)) && !avoid.contains(&m);
        let graded = move_points(&epd);

        session.clear();
        signals.stop.store(false, Ordering::Relaxed);
        let mut streak = 0;
        let mut found_at: Option<Duration> = None;
        let mut report = |r: Report| {
            if let Report::Line(info) = r
                && info.multipv == 1
                && info.bound.is_none()
                && let Some(&m) = info.pv.first()
            {
                if solves(m) {
                    streak += 1;
                    found_at.get_or_insert(info.time);
                } else {
                    streak = 0;
                    found_at = None;
                }
                if config.early_exit.is_some_and(|k| streak >= k) {
                    signals.stop.store(true, Ordering::Relaxed);
                }
            }
        };
        let result = session.run(board, &config.limits, &signals, &mut report);
        let found = result.best;
        let solved = match found {
            Some(m) if config.multipv > 1 => {
                !avoid.contains(&m)
                    && result
                        .lines
                        .iter()
                        .any(|l| l.pv.first().is_some_and(|&f| solves(f)))
            }
            Some(m) => solves(m),
            None => false,
        };
        summary.positions += 1;
        summary.solved += usize::from(solved);
        let points = graded
            .iter()
            .find(|&&(m, _)| Some(m) == found)
            .map_or(0, |g| g.1);
        summary.points += points;
        summary.max_points += graded.iter().map(|g| g.1).max().unwrap_or(0);
        summary.nodes += result.nodes;
        summary.time += result.time;

        let san = |m: &Move| board.move_to_san(*m);
        let mut expected = String::new();
        if !best.is_empty() {
            expected += &format!("bm {}", best.iter().map(san).collect::<Vec<_>>().join(" "));
        }
        if !avoid.is_empty() {
            expected += &format!(
                "{}am {}",
                if expected.is_empty() { "" } else { " " },
                avoid.iter().map(san).collect::<Vec<_>>().join(" ")
            );
        }
        let mut verdict = match (solved, found_at) {
            (true, Some(t)) => format!("solved (at {:.2}s)", t.as_secs_f64()),
            (true, None) => "solved".to_string(),
            (false, _) => "FAILED".to_string(),
        };
        if !graded.is_empty() {
            verdict += &format!(" {points} points");
        }
        let _ = writeln!(
            out,
            "{id:<10} found {:<8} expected {expected:<16} {verdict:<18} depth {:>2}  time {:.2}s",
            found.as_ref().map_or("(none)".to_string(), san),
            result.depth,
            result.time.as_secs_f64()
        );
        if config.verbose
            && let Some(line) = result.lines.first()
        {
            let _ = writeln!(
                out,
                "           score {} pv {}",
                score_text(line.score),
                san_line(board, &line.pv)
            );
        }
    }
    let secs = summary.time.as_secs_f64();
    let points = if summary.max_points > 0 {
        format!(", {} of {} points", summary.points, summary.max_points)
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "solved {} of {}{points} ({} skipped); {secs:.1} s, {} nodes, {:.2} Mnps",
        summary.solved,
        summary.positions,
        summary.skipped,
        summary.nodes,
        summary.nodes as f64 / secs.max(1e-9) / 1e6
    );
    summary
}

/// The graded moves of a `c0 "Nf3=10, g4=3, Bc2=2"` comment (the Strategic Test Suite's
/// convention), or none when the position has no such comment: a `c0` that does not read
/// as moves and points throughout is an ordinary comment.
fn move_points(epd: &Epd) -> Vec<(Move, u32)> {
    let Some(comment) = epd.operands("c0").and_then(|c| c.first()) else {
        return Vec::new();
    };
    comment
        .split(',')
        .map(|pair| {
            let (text, points) = pair.trim().split_once('=')?;
            Some((epd.board.parse_any_move(text).ok()?, points.parse().ok()?))
        })
        .collect::<Option<Vec<_>>>()
        .unwrap_or_default()
}

/// A line of moves in SAN, numbered from the position they start in: `34. Rxb2 Qxb2 35. Nc4`.
fn san_line(board: &Board, moves: &[Move]) -> String {
    let mut board = board.clone();
    let mut words = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        let number = board.fullmove_number();
        match board.side_to_move() {
            crate::types::Color::White => words.push(format!("{number}.")),
            crate::types::Color::Black if i == 0 => words.push(format!("{number}...")),
            crate::types::Color::Black => {}
        }
        words.push(board.move_to_san(m));
        board.make_move(m);
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn principal_variations_in_san() {
        let board = Board::from_fen("4k3/8/8/8/8/8/4P3/R3K3 b Q - 0 30").unwrap();
        let line = ["e8d7", "e1c1", "d7e6", "d1d8"]
            .iter()
            .scan(board.clone(), |b, text| {
                let m = b.parse_move(text).unwrap();
                b.make_move(m);
                Some(m)
            })
            .collect::<Vec<_>>();
        assert_eq!(san_line(&board, &line), "30... Kd7 31. O-O-O+ Ke6 32. Rd8");
        assert_eq!(san_line(&board, &[]), "");
    }

    #[test]
    fn graded_moves_score_points() {
        // Points for the move found, graded or not the best; a c0 that is prose grades nothing.
        let suite = concat!(
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"mate\"; c0 \"Ra8#=10, Ra7=3\";\n",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra8#; id \"prose\"; c0 \"back rank, mate\";\n",
            "6k1/5ppp/8/8/8/8/8/R5K1 w - - bm Ra7; id \"missed\"; c0 \"Ra7=10, Ra8=4\";\n",
        );
        let config = TestConfig {
            limits: Limits::depth(3),
            multipv: 1,
            early_exit: None,
            hash_mb: 1,
            syzygy: None,
            evaluator: Evaluator::hand_crafted(),
            verbose: false,
        };
        let mut out = Vec::new();
        let summary = run(suite, &config, &mut out);
        let text = String::from_utf8(out).unwrap();
        assert_eq!((summary.positions, summary.solved), (3, 2), "{text}");
        assert_eq!((summary.points, summary.max_points), (14, 20), "{text}");
        assert!(text.contains("14 of 20 points"), "{text}");
        assert!(text.lines().nth(1).is_some_and(|l| !l.contains("points")));
    }
}
