//! `ferrum makebook`: a Polyglot book from the games of PGN files. Each move played in the
//! games' main lines is weighted by how often and how well it was played: two points a
//! win and one a draw for the side that played it, as Polyglot's own book builder counts
//! them. An annotated repertoire (the first of several files, or the one file with
//! `repertoire` set) adds every move of its lines and variations, and its annotations set
//! the weights: `{weight: N}` (0 to 100, 50 being a move's normal weight), `!!` the
//! maximum, `!` half as much again, `!?` a quarter more, `?` and `??` never played (kept at
//! weight 0, so that the replies to them are known).

use super::movetext::{self, Annotation, nag};
use super::pgn::{GameResult, PgnGame, PgnReader};
use crate::book::{Entry, encode_move, polyglot_key, write_book};
use crate::types::Color;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// What goes into the book.
#[derive(Clone, Debug)]
pub struct BookSettings {
    /// Moves from the first `max_ply` plies of each game.
    pub max_ply: usize,
    /// A move is kept when at least this many games played it.
    pub min_games: u32,
    /// Only the moves of this side.
    pub only: Option<Color>,
    /// The first file is an annotated repertoire (always so with several files).
    pub repertoire: bool,
}

impl Default for BookSettings {
    fn default() -> BookSettings {
        BookSettings {
            max_ply: 30,
            min_games: 3,
            only: None,
            repertoire: false,
        }
    }
}

/// The weight an annotation gives the moves of a position whose normal weight is
/// `NORMAL`; other positions scale it to theirs.
const NORMAL: u32 = 50;

/// What the games say of one move in one position.
#[derive(Clone, Debug, Default)]
struct Tally {
    games: u32,
    points: u32,
    /// A line of the repertoire plays it.
    repertoire: bool,
    /// The repertoire's last word on it.
    annotation: Option<Annotation>,
}

/// What a run did, for the summary line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BookSummary {
    pub games: usize,
    pub skipped: usize,
    pub positions: usize,
    pub entries: usize,
    /// Annotations that were not understood (and were ignored).
    pub bad_annotations: usize,
}

/// Progress is reported after every this many games.
const PROGRESS_EVERY: usize = 10_000;

/// The moves of all the games read so far.
struct Builder<'a> {
    settings: &'a BookSettings,
    tallies: HashMap<(u64, u16), Tally>,
    summary: BookSummary,
}

impl Builder<'_> {
    /// Counts one game: its main line for the statistics, and with `repertoire` every move
    /// with its annotations. `source` names the file in messages.
    fn add(&mut self, game: &PgnGame, repertoire: bool, source: &str, log: &mut impl Write) {
        let settings = self.settings;
        self.summary.games += 1;
        if self.summary.games.is_multiple_of(PROGRESS_EVERY) {
            let _ = writeln!(
                log,
                "makebook: {} games, {} moves in the book so far",
                self.summary.games,
                self.tallies.len()
            );
        }
        // Points for the side that moved: a result-less game counts as played, not scored.
        let points = |mover: Color| match (game.result(), mover) {
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => 2,
            (GameResult::Draw, _) => 1,
            _ => 0,
        };
        let mut moves = Vec::new();
        let mut bad = Vec::new();
        let walked = movetext::walk(game, |visit| {
            let board = visit.board;
            if board.plies_played() >= settings.max_ply
                || settings.only.is_some_and(|c| c != board.side_to_move())
                || !(visit.main || repertoire)
            {
                return;
            }
            let mut annotation = visit.annotation;
            if let Some(Err(why)) = &annotation.weight {
                bad.push(format!("move {}: {why}; ignored", visit.text));
                annotation.weight = None;
            }
            let played = visit.main.then(|| points(board.side_to_move()));
            moves.push((
                polyglot_key(board),
                encode_move(visit.mv),
                played,
                annotation,
            ));
        });
        if let Err(fault) = walked {
            self.summary.skipped += 1;
            let at = if fault.text.is_empty() {
                "its start".to_string()
            } else {
                format!("move {}", fault.text)
            };
            let _ = writeln!(
                log,
                "makebook: {source}game {} skipped at {at}: {}",
                game.number, fault.reason
            );
            return;
        }
        for message in bad {
            self.summary.bad_annotations += 1;
            let _ = writeln!(log, "makebook: {source}game {}, {message}", game.number);
        }
        for (key, mv, played, annotation) in moves {
            let tally = self.tallies.entry((key, mv)).or_default();
            if let Some(points) = played {
                tally.games += 1;
                tally.points += points;
            }
            if repertoire {
                tally.repertoire = true;
                if annotation != Annotation::default() {
                    tally.annotation = Some(annotation);
                }
            }
        }
    }

    /// The book's entries, sorted by key.
    fn finish(mut self) -> (Vec<Entry>, BookSummary) {
        let min_games = self.settings.min_games;
        let counted = |t: &Tally| t.games >= min_games && t.points > 0;
        let mut kept: Vec<(u64, u16, Tally)> = self
            .tallies
            .into_iter()
            .filter(|(_, t)| counted(t) || t.repertoire)
            .map(|((key, mv), t)| (key, mv, t))
            .collect();
        kept.sort_unstable_by_key(|&(key, mv, _)| (key, mv));
        let mut weights = Vec::with_capacity(kept.len());
        for group in kept.chunk_by(|a, b| a.0 == b.0) {
            // A repertoire move without statistics weighs as the position's average
            // counted move: as likely as the games' usual choice.
            let counted_points: Vec<u32> = group
                .iter()
                .filter(|e| counted(&e.2))
                .map(|e| e.2.points)
                .collect();
            let normal = if counted_points.is_empty() {
                NORMAL
            } else {
                (counted_points.iter().sum::<u32>() / counted_points.len() as u32).max(1)
            };
            for (key, mv, tally) in group {
                let base = if counted(tally) { tally.points } else { normal };
                let weight = tally
                    .annotation
                    .as_ref()
                    .map_or(base, |a| annotated(a, base, normal));
                weights.push((*key, *mv, weight));
            }
        }
        let entries = weighted(&weights);
        self.summary.entries = entries.len();
        self.summary.positions = weights.chunk_by(|a, b| a.0 == b.0).count();
        (entries, self.summary)
    }
}

/// A move's weight after its annotation, from its weight `base` in a position whose
/// normal weight is `normal`: an explicit weight first, then the NAGs, strongest first.
fn annotated(annotation: &Annotation, base: u32, normal: u32) -> u32 {
    let scaled = |n: u32| n * normal / NORMAL;
    if let Some(Ok(n)) = annotation.weight {
        return scaled(u32::from(n));
    }
    let has = |n: u8| annotation.nags.contains(&n);
    if has(nag::MISTAKE) || has(nag::BLUNDER) {
        0
    } else if has(nag::BRILLIANT) {
        scaled(100)
    } else if has(nag::GOOD) {
        base * 3 / 2
    } else if has(nag::INTERESTING) {
        base * 5 / 4
    } else {
        base
    }
}

/// Builds the book's entries from `files` (each a PGN stream and its name); the first is
/// the repertoire when there are several or `settings.repertoire` says so. Games that
/// cannot be replayed and annotations that cannot be read are reported on `log` with
/// their file, number and move and left out; progress goes there too.
pub fn build(
    files: Vec<(String, impl BufRead)>,
    settings: &BookSettings,
    log: &mut impl Write,
) -> Result<(Vec<Entry>, BookSummary), String> {
    let several = files.len() > 1;
    let mut builder = Builder {
        settings,
        tallies: HashMap::new(),
        summary: BookSummary::default(),
    };
    for (index, (name, pgn)) in files.into_iter().enumerate() {
        let repertoire = index == 0 && (several || settings.repertoire);
        let source = if several {
            format!("{name}: ")
        } else {
            String::new()
        };
        for game in PgnReader::new(pgn) {
            builder.add(&game?, repertoire, &source, log);
        }
    }
    Ok(builder.finish())
}

/// Entries with the points as weights; where a position's points pass what 16 bits hold,
/// all its weights are scaled down together so that their ratios stay (a weight above 0
/// stays above 0: a move to play).
fn weighted(kept: &[(u64, u16, u32)]) -> Vec<Entry> {
    let max_weight = u64::from(u16::MAX);
    kept.chunk_by(|a, b| a.0 == b.0)
        .flat_map(|group| {
            let max = group.iter().map(|e| u64::from(e.2)).max().unwrap_or(1);
            group.iter().map(move |&(key, mv, points)| {
                let points = u64::from(points);
                let weight = if max > max_weight && points > 0 {
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

/// `ferrum makebook`: reads `pgns`, writes the book to `output`, and prints a summary.
pub fn run(
    pgns: &[PathBuf],
    output: &Path,
    settings: &BookSettings,
) -> Result<BookSummary, String> {
    let mut files = Vec::new();
    for pgn in pgns {
        let file =
            std::fs::File::open(pgn).map_err(|e| format!("cannot open {}: {e}", pgn.display()))?;
        files.push((pgn.display().to_string(), std::io::BufReader::new(file)));
    }
    let (mut entries, summary) = build(files, settings, &mut std::io::stderr())?;
    if entries.is_empty() {
        return Err(format!(
            "no move was played in at least {} games, and no repertoire gave one: nothing to write",
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
    use crate::rules::Notation;

    fn book(pgn: &str, settings: &BookSettings) -> (Vec<Entry>, BookSummary, String) {
        let mut log = Vec::new();
        let files = vec![("games.pgn".to_string(), pgn.as_bytes())];
        let (entries, summary) = build(files, settings, &mut log).unwrap();
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

    /// The weight of `uci` after `moves` in a book.
    fn weight_of(entries: &[Entry], moves: &[&str], uci: &str) -> Option<u16> {
        let mut board = Board::startpos();
        for m in moves {
            board.make_move(board.parse_move(m).unwrap());
        }
        let (key, mv) = (
            polyglot_key(&board),
            encode_move(board.parse_move(uci).unwrap()),
        );
        entries
            .iter()
            .find(|e| e.key == key && e.mv == mv)
            .map(|e| e.weight)
    }

    #[test]
    fn a_repertoire_adds_its_lines_weighted_by_their_annotations() {
        let repertoire = "1. e4 {weight: 80} e5 (1... c5!? 2. Nf3) (1... e6? 2. d4) \
                          (1... c6 {weight: 250}) 2. Nf3 Nc6!! *\n";
        let games = "1. e4 e5 1-0\n\n".repeat(3) + &"1. d4 d5 1-0\n\n".repeat(3);
        let mut log = Vec::new();
        let files = vec![
            ("rep.pgn".to_string(), repertoire.as_bytes()),
            ("games.pgn".to_string(), games.as_bytes()),
        ];
        let (entries, summary) = build(files, &BookSettings::default(), &mut log).unwrap();
        let log = String::from_utf8(log).unwrap();
        assert_eq!(summary.bad_annotations, 1);
        assert!(
            log.contains("rep.pgn: game 1, move 1... c6: weight 250 is not from 0 to 100"),
            "{log}"
        );
        let w = |moves: &[&str], uci: &str| weight_of(&entries, moves, uci);
        // e4 and d4 scored 6 points each, the position's normal weight: 80 is 8/5 of it.
        assert_eq!(w(&[], "d2d4"), Some(6));
        assert_eq!(w(&[], "e2e4"), Some(9));
        // After 1. e4 no move scored: the normal weight is 50. 1... e5 lost every game
        // but is in the repertoire; !? adds a quarter, ? is never played but kept, a bad
        // weight leaves the normal one.
        assert_eq!(w(&["e2e4"], "e7e5"), Some(50));
        assert_eq!(w(&["e2e4"], "c7c5"), Some(62));
        assert_eq!(w(&["e2e4"], "e7e6"), Some(0));
        assert_eq!(w(&["e2e4"], "c7c6"), Some(50));
        // Replies to the variations are known, and !! is the scale's maximum.
        assert_eq!(w(&["e2e4", "e7e6"], "d2d4"), Some(50));
        assert_eq!(w(&["e2e4", "c7c5"], "g1f3"), Some(50));
        assert_eq!(w(&["e2e4", "e7e5", "g1f3"], "b8c6"), Some(100));
        // d5 lost its three games and is not in the repertoire.
        assert_eq!(w(&["d2d4"], "d7d5"), None);
        // One file is a game collection, as Polyglot reads it, unless told otherwise.
        let (alone, _) = build(
            vec![("rep.pgn".to_string(), repertoire.as_bytes())],
            &BookSettings {
                min_games: 1,
                ..BookSettings::default()
            },
            &mut Vec::new(),
        )
        .unwrap();
        assert!(alone.is_empty(), "an unfinished game scores nothing");
        let (alone, _) = build(
            vec![("rep.pgn".to_string(), repertoire.as_bytes())],
            &BookSettings {
                repertoire: true,
                ..BookSettings::default()
            },
            &mut Vec::new(),
        )
        .unwrap();
        assert_eq!(weight_of(&alone, &["e2e4"], "c7c5"), Some(62));
        assert_eq!(weight_of(&alone, &[], "e2e4"), Some(80));
    }

    #[test]
    fn heavy_positions_keep_their_ratios() {
        let entries = weighted(&[(1, 10, 200_000), (1, 11, 100_000), (1, 12, 0), (2, 10, 7)]);
        let weights: Vec<u16> = entries.iter().map(|e| e.weight).collect();
        assert_eq!(weights, [65_535, 32_767, 0, 7]);
    }
}
