//! `ferrum makebook`: a Polyglot book from the games of a PGN file. Each move is weighted by
//! how often and how well it was played: two points a win and one a draw for the side that
//! played it, as Polyglot's own book builder counts them.

use super::pgn::{GameResult, PgnReader};
use crate::book::{Entry, encode_move, polyglot_key, write_book};
use crate::types::Color;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::Path;

/// What goes into the book.
#[derive(Clone, Debug)]
pub struct BookSettings {
    /// Moves from the first `max_ply` plies of each game.
    pub max_ply: usize,
    /// A move is kept when at least this many games played it.
    pub min_games: u32,
    /// Only the moves of this side.
    pub only: Option<Color>,
}

impl Default for BookSettings {
    fn default() -> BookSettings {
        BookSettings {
            max_ply: 30,
            min_games: 3,
            only: None,
        }
    }
}

/// Games played and points scored with one move in one position.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    games: u32,
    points: u32,
}

/// What a run did, for the summary line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BookSummary {
    pub games: usize,
    pub skipped: usize,
    pub positions: usize,
    pub entries: usize,
}

/// Progress is reported after every this many games.
const PROGRESS_EVERY: usize = 10_000;

/// Builds the book's entries from `pgn`. Games that cannot be replayed are reported on
/// `log` with their number and move and left out; progress goes there too.
pub fn build(
    pgn: impl BufRead,
    settings: &BookSettings,
    log: &mut impl Write,
) -> Result<(Vec<Entry>, BookSummary), String> {
    let mut tallies: HashMap<(u64, u16), Tally> = HashMap::new();
    let mut summary = BookSummary::default();
    for game in PgnReader::new(pgn) {
        let game = game?;
        summary.games += 1;
        if summary.games.is_multiple_of(PROGRESS_EVERY) {
            let _ = writeln!(
                log,
                "makebook: {} games, {} moves in the book so far",
                summary.games,
                tallies.len()
            );
        }
        // Points for the side that moved: a result-less game counts as played, not scored.
        let points = |mover: Color| match (game.result(), mover) {
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 2,
            (GameResult::Draw, _) => 1,
            _ => 0,
        };
        let mut moves = Vec::new();
        let replayed = game.replay(|board, m| {
            if board.plies_played() < settings.max_ply
                && settings.only.is_none_or(|c| c == board.side_to_move())
            {
                moves.push((
                    polyglot_key(board),
                    encode_move(m),
                    points(board.side_to_move()),
                ));
            }
        });
        if let Err(fault) = replayed {
            summary.skipped += 1;
            let _ = writeln!(
                log,
                "makebook: game {} skipped at {}: {}",
                game.number,
                if fault.text.is_empty() {
                    "its start".to_string()
                } else {
                    format!("move {}", fault.text)
                },
                fault.reason
            );
            continue;
        }
        for (key, mv, points) in moves {
            let tally = tallies.entry((key, mv)).or_default();
            tally.games += 1;
            tally.points += points;
        }
    }
    let mut kept: Vec<(u64, u16, u32)> = tallies
        .into_iter()
        .filter(|(_, t)| t.games >= settings.min_games && t.points > 0)
        .map(|((key, mv), t)| (key, mv, t.points))
        .collect();
    kept.sort_unstable();
    let entries = weighted(&kept);
    summary.entries = entries.len();
    summary.positions = kept.chunk_by(|a, b| a.0 == b.0).count();
    Ok((entries, summary))
}

/// Entries with the points as weights; where a position's points pass what 16 bits hold,
/// all its weights are scaled down together so that their ratios stay.
fn weighted(kept: &[(u64, u16, u32)]) -> Vec<Entry> {
    let max_weight = u64::from(u16::MAX);
    kept.chunk_by(|a, b| a.0 == b.0)
        .flat_map(|group| {
            let max = group.iter().map(|e| u64::from(e.2)).max().unwrap_or(1);
            group.iter().map(move |&(key, mv, points)| {
                let points = u64::from(points);
                let weight = if max > max_weight {
                    (points * max_weight / max).max(1)
                } else {
                    points
                };
                Entry {
                    key,
                    mv,
                    weight: weight as u16,
                    learn: 0,
                }
            })
        })
        .collect()
}

/// `ferrum makebook`: reads `pgn`, writes the book to `output`, and prints a summary.
pub fn run(pgn: &Path, output: &Path, settings: &BookSettings) -> Result<BookSummary, String> {
    let file =
        std::fs::File::open(pgn).map_err(|e| format!("cannot open {}: {e}", pgn.display()))?;
    let (mut entries, summary) = build(
        std::io::BufReader::new(file),
        settings,
        &mut std::io::stderr(),
    )?;
    if entries.is_empty() {
        return Err(format!(
            "no move of {} was played in at least {} games: nothing to write",
            pgn.display(),
            settings.min_games
        ));
    }
    write_book(output, &mut entries)?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    fn book(pgn: &str, settings: &BookSettings) -> (Vec<Entry>, BookSummary, String) {
        let mut log = Vec::new();
        let (entries, summary) = build(pgn.as_bytes(), settings, &mut log).unwrap();
        (entries, summary, String::from_utf8(log).unwrap())
    }

    const GAMES: &str = "1. e4 e5 1-0\n\n1. e4 c5 0-1\n\n1. e4 e5 1/2-1/2\n\n1. d4 d5 1-0\n\n\
                         1. e4 Nf6 2. Qh5 *\n\n1. e4 e5 2. Ke3 1-0\n";

    #[test]
    fn weights_count_wins_twice_and_draws_once() {
        let settings = BookSettings {
            min_games: 1,
            ..BookSettings::default()
        };
        let (entries, summary, log) = book(GAMES, &settings);
        assert_eq!(summary.games, 6);
        assert_eq!(summary.skipped, 1);
        assert!(log.contains("game 6 skipped at move 2. Ke3"), "{log}");
        let start = Board::startpos();
        let weight = |board: &Board, uci: &str| {
            let mv = encode_move(board.parse_move(uci).unwrap());
            let key = polyglot_key(board);
            entries
                .iter()
                .find(|e| e.key == key && e.mv == mv)
                .map(|e| e.weight)
        };
        // e4: a win, a loss, a draw and an unfinished game: 2 + 0 + 1 + 0.
        assert_eq!(weight(&start, "e2e4"), Some(3));
        assert_eq!(weight(&start, "d2d4"), Some(2));
        let mut after_e4 = start.clone();
        after_e4.make_move(start.parse_move("e2e4").unwrap());
        assert_eq!(weight(&after_e4, "c7c5"), Some(2));
        assert_eq!(weight(&after_e4, "e7e5"), Some(1));
        // Nf6 scored nothing: left out, as Polyglot leaves out moves without points.
        assert_eq!(weight(&after_e4, "g8f6"), None);
        assert!(entries.windows(2).all(|w| w[0].key <= w[1].key));
    }

    #[test]
    fn limits_on_games_plies_and_side() {
        let (entries, ..) = book(GAMES, &BookSettings::default());
        // Only e4 was played in three games or more.
        assert_eq!(entries.len(), 1);
        let (entries, ..) = book(
            GAMES,
            &BookSettings {
                min_games: 1,
                only: Some(Color::Black),
                ..BookSettings::default()
            },
        );
        assert_eq!(entries.len(), 2);
        let (entries, ..) = book(
            GAMES,
            &BookSettings {
                min_games: 1,
                max_ply: 1,
                ..BookSettings::default()
            },
        );
        assert_eq!(entries.len(), 2);
    }

    #[test]
    fn heavy_positions_keep_their_ratios() {
        let entries = weighted(&[(1, 10, 200_000), (1, 11, 100_000), (2, 10, 7)]);
        let weights: Vec<u16> = entries.iter().map(|e| e.weight).collect();
        assert_eq!(weights, [65_535, 32_767, 7]);
    }
}
