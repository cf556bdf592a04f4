//! Opening names (ECO code and name) from the lichess.org chess-openings set (CC0; the
//! `.tsv` files here, see `SOURCE.md`). A position is named when one of the 3,812 lines
//! ends in it; a game takes the name of its last named position, found by walking back
//! from its end, so that transpositions into a named line are recognised.

use crate::board::Board;
use crate::book::polyglot_key;
use crate::rules::Notation;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

/// The five ECO volumes, A to E.
const VOLUMES: [&str; 5] = [
    include_str!("a.tsv"),
    include_str!("b.tsv"),
    include_str!("c.tsv"),
    include_str!("d.tsv"),
    include_str!("e.tsv"),
];

/// A named opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// `A00` to `E99`.
    pub eco: &'static str,
    /// Family and variation, as `Sicilian Defense: Najdorf Variation`.
    pub name: &'static str,
}

impl std::fmt::Display for Opening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.eco, self.name)
    }
}

/// Every named position, by its Polyglot key (which counts an en passant square only when a
/// capture there is legal, so a FEN names the same as the moves that reach it).
pub struct OpeningNames {
    by_key: HashMap<u64, Opening>,
    /// Every position the lines pass through, named or not: the opening book's moves.
    along: HashSet<u64>,
}

impl OpeningNames {
    /// The set built in, read once on first use.
    pub fn get() -> &'static OpeningNames {
        static NAMES: OnceLock<OpeningNames> = OnceLock::new();
        NAMES.get_or_init(|| {
            OpeningNames::parse(&VOLUMES).expect("the built-in opening names are valid")
        })
    }

    /// Reads `eco <tab> name <tab> pgn` lines after a header line. Where two lines reach
    /// one position, the first keeps it.
    fn parse(volumes: &[&'static str]) -> Result<OpeningNames, String> {
        let mut by_key = HashMap::new();
        let mut along = HashSet::new();
        for volume in volumes {
            for (number, line) in volume.lines().enumerate().skip(1) {
                let fault = |why: String| format!("opening names, line {}: {why}", number + 1);
                let mut fields = line.split('\t');
                let (Some(eco), Some(name), Some(pgn)) =
                    (fields.next(), fields.next(), fields.next())
                else {
                    return Err(fault("not three fields".into()));
                };
                let mut board = Board::startpos();
                for san in pgn.split_whitespace().filter(|t| !t.ends_with('.')) {
                    let m = board
                        .parse_san(san)
                        .map_err(|e| fault(format!("{san}: {e}")))?;
                    board.make_move(m);
                    along.insert(polyglot_key(&board));
                }
                by_key
                    .entry(polyglot_key(&board))
                    .or_insert(Opening { eco, name });
            }
        }
        Ok(OpeningNames { by_key, along })
    }

    /// How many positions have a name.
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }

    /// The name of this very position, if a line ends in it.
    pub fn of_position(&self, board: &Board) -> Option<&Opening> {
        self.by_key.get(&polyglot_key(board))
    }

    /// Whether a named line passes through this position (a move into it is a book move),
    /// named or not.
    pub fn is_known(&self, board: &Board) -> bool {
        self.along.contains(&polyglot_key(board))
    }

    /// The name of the game that led to `board`: its last named position, walking back
    /// through the moves it was played with.
    pub fn of_game(&self, board: &Board) -> Option<&Opening> {
        let mut board = board.clone();
        loop {
            if let Some(opening) = self.of_position(&board) {
                return Some(opening);
            }
            if board.plies_played() == 0 {
                return None;
            }
            board.unmake_move();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(moves: &str) -> Board {
        let mut board = Board::startpos();
        for san in moves.split_whitespace() {
            let m = board.parse_san(san).unwrap();
            board.make_move(m);
        }
        board
    }

    fn name(opening: Option<&Opening>) -> String {
        opening.map_or("none".into(), ToString::to_string)
    }

    #[test]
    fn every_line_is_read() {
        let names = OpeningNames::get();
        // 3,812 lines, a few of which reach the same position.
        assert!(
            names.len() > 3_700 && names.len() <= 3_812,
            "{}",
            names.len()
        );
        assert!(names.of_position(&Board::startpos()).is_none());
    }

    #[test]
    fn positions_games_and_transpositions() {
        let names = OpeningNames::get();
        assert_eq!(
            name(names.of_position(&after("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"))),
            "B90 Sicilian Defense: Najdorf Variation"
        );
        // Out of the named lines: the last named position counts.
        assert_eq!(
            name(names.of_game(&after("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 h3 h6 a3"))),
            "B90 Sicilian Defense: Najdorf Variation, Adams Attack"
        );
        // The Queen's Gambit Declined reached through the English.
        assert_eq!(
            name(names.of_game(&after("c4 e6 Nc3 d5 d4"))),
            name(names.of_position(&after("d4 d5 c4 e6 Nc3")))
        );
        assert_eq!(name(names.of_game(&Board::startpos())), "none");
        // Every named position lies on a line, and so do the unnamed ones on the way.
        assert!(names.is_known(&after("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6")));
        assert!(names.is_known(&after("e4 c5 Nf3 d6 d4 cxd4 Nxd4")));
        assert!(!names.is_known(&after("e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 h3 h6 a3")));
        assert!(!names.is_known(&after("a3 h6 h3 a6")));
    }

    #[test]
    fn a_fen_names_as_its_moves_do() {
        let names = OpeningNames::get();
        let fen =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
        assert_eq!(name(names.of_position(&fen)), "B00 King's Pawn Game");
        assert_eq!(names.of_position(&fen), names.of_position(&after("e4")));
    }

    #[test]
    fn bad_lines_are_reported() {
        let error = |text: &'static str| OpeningNames::parse(&[text]).err().unwrap();
        assert!(error("eco\tname\tpgn\nA00\tNo moves\t1. e5\n").contains("line 2: e5"));
        assert!(error("eco\tname\tpgn\nA00 only one field\n").contains("three fields"));
    }
}
