//! Positional learning, after Arasan's: a position whose score the game's search found far
//! from what its search one move earlier expected is kept in a learn file, and at the start
//! of every game (and when `Learning` is switched on) the file's positions go into the
//! transposition table, so that the same trap is seen at once in the next game.
//!
//! What is learned: when the search for our move finds a score at least `MARGIN` away from
//! the score the search for our previous move gave (both at least `MIN_DEPTH` plies deep,
//! the position reached by our move and one reply), the current position is kept with its
//! score, depth and best move. In the next game a search that reaches it (at the root's
//! depth or less, on any line) takes that score from the table at once
//! (`TranspositionTable::store_learned`), so the move that led into it is judged by what
//! was found one move later.
//!
//! The file and its format: `file.rs`.

mod file;

pub use file::{LearnEntry, LearnFile, keep, parse, read, to_text, write};

use super::Engine;
use crate::board::Board;
use crate::comm::CommOut;
use crate::movegen::legal_moves;
use crate::search::SearchResult;
use crate::types::{Score, UciScore, is_decisive};
use std::path::Path;

/// The change of score, in centipawns, that makes a position worth learning. In Ferrum's
/// self-play (5,000-node searches, 300,000 pairs of consecutive moves of one side) the
/// score changes by a median of 13 from one move to the next and by 75 or more at 7% of
/// moves: well beyond the drift, well within what a missed tactic costs (a pawn and more).
/// Arasan's threshold is a third of a pawn, compared over two and over four plies.
pub const MARGIN: Score = 75;
/// The depth both searches must have reached (as Arasan's: more than 7). Shallower scores
/// swing by themselves, and an entry shallower than the searches of the next game is used
/// only where they reach it with little depth left.
pub const MIN_DEPTH: i32 = 8;
/// Positions kept in the file at most. About 100 bytes each, and each held in the table
/// ahead of other positions: 4,096 fill 6% of the smallest table (1 MiB).
pub const MAX_ENTRIES: usize = 4_096;

/// What the search for our last move expected.
struct Expectation {
    /// The position after the move it chose: the opponent to move.
    after: Board,
    score: Score,
}

impl Expectation {
    /// Whether `board` follows from the expected position by one move (the opponent's).
    fn leads_to(&self, board: &Board) -> bool {
        let mut after = self.after.clone();
        legal_moves(&self.after).iter().any(|&m| {
            after.make_move(m);
            let reached = after.key() == board.key();
            after.unmake_move();
            reached
        })
    }
}

/// Follows a game's searches, and says which positions are worth learning.
#[derive(Default)]
pub struct Learner {
    expected: Option<Expectation>,
}

impl Learner {
    /// A new game: nothing is expected.
    pub fn forget(&mut self) {
        self.expected = None;
    }

    /// Takes the result of the search for our move in `root`, and returns the position to
    /// learn when its score is at least `MARGIN` away from what the search for our previous
    /// move expected (both searched at least `MIN_DEPTH` deep, with exact scores, and
    /// `root` reached from that move by one reply). Scores that are both wins, or both
    /// losses, for the same side teach nothing new.
    pub fn lesson(&mut self, root: &Board, result: &SearchResult) -> Option<LearnEntry> {
        let line = result
            .lines
            .first()
            .filter(|line| line.bound.is_none() && line.depth >= MIN_DEPTH);
        let now = result.best.zip(line);
        let surprise = |expected: Score, found: Score| {
            let same_result =
                is_decisive(expected) && is_decisive(found) && expected.signum() == found.signum();
            (found - expected).abs() >= MARGIN && !same_result
        };
        let lesson = match (&self.expected, now) {
            (Some(expected), Some((best, line)))
                if surprise(expected.score, line.score) && expected.leads_to(root) =>
            {
                // The position alone: the game that led to it is no part of what is learned.
                Board::from_fen(&root.to_fen())
                    .ok()
                    .map(|board| LearnEntry {
                        board,
                        depth: line.depth,
                        score: line.score,
                        mv: best,
                        seq: 0,
                    })
            }
            _ => None,
        };
        self.expected = now.map(|(best, line)| {
            let mut after = root.clone();
            after.make_move(best);
            Expectation {
                after,
                score: line.score,
            }
        });
        lesson
    }
}

impl Engine {
    /// The learn file's path, when learning is on and there is one.
    fn learn_path(&self) -> Option<&Path> {
        let path = self.options.learn_file.trim();
        (self.options.learning && !path.is_empty()).then(|| Path::new(path))
    }

    /// Puts the learn file's positions into the table, when `Learning` is on: at a new
    /// game, after the table was cleared or replaced, and when the option changes
    /// (`announce`: then the count is told as well). Damage is always reported.
    pub(super) fn load_learned(&mut self, announce: bool) {
        let Some(path) = self.learn_path() else {
            if announce && self.options.learning {
                self.send(CommOut::Message(
                    "Learning: LearnFile is empty, so nothing is learned".into(),
                ));
            }
            return;
        };
        let shown = path.display().to_string();
        let learned = match read(path) {
            Ok(learned) => learned,
            Err(e) => {
                return self.send(CommOut::Notice(format!(
                    "learn file {shown}: {e}; learning goes on without it"
                )));
            }
        };
        let evaluator = self.evaluator();
        self.session.learn(
            learned
                .entries
                .iter()
                .map(|e| (&e.board, e.mv, e.score, e.depth)),
            &evaluator,
        );
        let count = learned.entries.len();
        if let Some(problems) = learned.problem_report() {
            self.send(CommOut::Notice(format!(
                "learn file {shown}: {problems}; {} kept",
                positions(count)
            )));
        } else if announce {
            self.send(CommOut::Message(format!(
                "learn file {shown}: {}",
                positions(count)
            )));
        }
    }

    /// After the search for a move of ours in `root`: learns the position when its score
    /// surprised (`Learner::lesson`), adding it to the learn file.
    pub(super) fn learn_from(&mut self, root: &Board, result: &SearchResult) {
        let Some(path) = self.learn_path().map(Path::to_path_buf) else {
            return;
        };
        let Some(mut entry) = self.learner.lesson(root, result) else {
            return;
        };
        let shown = path.display().to_string();
        let not_saved = |e: String| {
            CommOut::Notice(format!(
                "learn file {shown}: {e}; the position is not saved"
            ))
        };
        // Read afresh: another engine may share the file.
        let mut learned = match read(&path) {
            Ok(learned) => learned,
            Err(e) => return self.send(not_saved(e)),
        };
        entry.seq = learned.entries.iter().map(|e| e.seq + 1).max().unwrap_or(1);
        let message = format!(
            "learned {}: score {} at depth {}",
            entry.board.to_fen(),
            UciScore(entry.score),
            entry.depth
        );
        learned.entries.push(entry);
        keep(&mut learned.entries, MAX_ENTRIES);
        if let Err(e) = write(&path, &learned.entries) {
            return self.send(not_saved(e));
        }
        if let Some(problems) = learned.problem_report() {
            self.send(CommOut::Notice(format!(
                "learn file {shown}: {problems}; written again with the good positions"
            )));
        }
        self.send(CommOut::Message(format!(
            "{message}; {} in {shown}",
            positions(learned.entries.len())
        )));
    }
}

/// "1 position", "2 positions".
fn positions(count: usize) -> String {
    format!("{count} position{}", if count == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Notation;
    use crate::search::SearchInfo;
    use crate::types::{MATE, TB_BOUND};
    use std::time::Duration;

    fn result(board: &Board, mv: &str, score: Score, depth: i32) -> SearchResult {
        let best = board.parse_move(mv).unwrap();
        SearchResult {
            best: Some(best),
            ponder: None,
            score,
            depth,
            nodes: 0,
            tbhits: 0,
            time: Duration::ZERO,
            lines: vec![SearchInfo::bare(depth, 1, score, vec![best])],
        }
    }

    /// A position is learned when its score is far from what our previous move's search
    /// expected, and only then.
    #[test]
    fn lessons() {
        let game = |moves: &[&str]| {
            let mut board = Board::startpos();
            for m in moves {
                board.make_move(board.parse_move(m).unwrap());
            }
            board
        };
        let mut learner = Learner::default();
        let first = game(&[]);
        assert_eq!(
            learner.lesson(&first, &result(&first, "e2e4", 20, 10)),
            None
        );
        // One reply later, 80 worse: learned, with this search's depth, score and move.
        let second = game(&["e2e4", "e7e5"]);
        let lesson = learner.lesson(&second, &result(&second, "g1f3", -60, 9));
        let lesson = lesson.expect("a drop of 80");
        assert_eq!(lesson.board.key(), second.key());
        assert_eq!(lesson.board.plies_played(), 0);
        assert_eq!((lesson.depth, lesson.score), (9, -60));
        assert_eq!(lesson.mv, second.parse_move("g1f3").unwrap());
        // 74 up is within the margin.
        let third = game(&["e2e4", "e7e5", "g1f3", "b8c6"]);
        assert_eq!(learner.lesson(&third, &result(&third, "f1b5", 14, 9)), None);
        // A jump up counts as well; but not when the position does not follow from our
        // move (we played another, or more than one move was made).
        let fourth = game(&["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]);
        let mut other = learner_after(&third, "f1c4", 14);
        assert_eq!(
            other.lesson(&fourth, &result(&fourth, "b5a4", 200, 9)),
            None
        );
        assert!(
            learner
                .lesson(&fourth, &result(&fourth, "b5a4", 200, 9))
                .is_some()
        );
        let sixth = game(&[
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7",
        ]);
        assert_eq!(learner.lesson(&sixth, &result(&sixth, "f1e1", 0, 9)), None);
        // Too shallow, either search.
        let mut shallow = learner_after(&first, "e2e4", 20);
        let seventh = game(&["e2e4", "e7e5"]);
        assert_eq!(
            shallow.lesson(&seventh, &result(&seventh, "g1f3", -300, MIN_DEPTH - 1)),
            None
        );
        let mut shallow = Learner::default();
        shallow.lesson(&first, &result(&first, "e2e4", 20, MIN_DEPTH - 1));
        assert_eq!(
            shallow.lesson(&seventh, &result(&seventh, "g1f3", -300, MIN_DEPTH)),
            None
        );
        // A mate found where a win was seen already teaches nothing (a mate where there
        // was none does); a forgotten game expects nothing.
        let mut winning = learner_after(&first, "e2e4", MATE - 31);
        let tablebase_win = TB_BOUND + 50;
        assert_eq!(
            winning.lesson(&seventh, &result(&seventh, "g1f3", tablebase_win, 12)),
            None
        );
        let mut mating = learner_after(&first, "e2e4", 500);
        assert!(
            mating
                .lesson(&seventh, &result(&seventh, "g1f3", MATE - 21, 12))
                .is_some()
        );
        let mut forgot = learner_after(&first, "e2e4", 20);
        forgot.forget();
        assert_eq!(
            forgot.lesson(&seventh, &result(&seventh, "g1f3", -300, 12)),
            None
        );
    }

    /// A learner that has seen the search of `board` choose `mv` with `score`.
    fn learner_after(board: &Board, mv: &str, score: Score) -> Learner {
        let mut learner = Learner::default();
        learner.lesson(board, &result(board, mv, score, 12));
        learner
    }
}
