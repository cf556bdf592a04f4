//! The lines of a MultiPV search between iterations: one per root move, never two with the
//! same first move, so that a client that keeps the last line of each rank always holds a
//! set it can trust.

use super::SearchInfo;
use crate::types::{Move, Score};

pub(super) struct MultiPv {
    /// The lines of the iteration in progress come first, in the order they were searched;
    /// after them the rest of the previous iteration's.
    lines: Vec<SearchInfo>,
    count: usize,
    /// A line changed since the set was last reported.
    unreported: bool,
}

impl MultiPv {
    pub(super) fn new(count: usize) -> MultiPv {
        MultiPv {
            lines: Vec::with_capacity(count + 1),
            count,
            unreported: false,
        }
    }

    /// The score of the line at `index` in the previous iteration, the centre of its
    /// aspiration window.
    pub(super) fn score_at(&self, index: usize) -> Option<Score> {
        self.lines.get(index).map(|l| l.score)
    }

    pub(super) fn best_score(&self) -> Score {
        self.lines.first().map_or(0, |l| l.score)
    }

    /// The best line's first move, if there is a line.
    pub(super) fn best_move(&self) -> Option<Move> {
        self.lines.first().and_then(|l| l.pv.first().copied())
    }

    /// Puts the `index`-th line of this iteration in place. The previous iteration's line
    /// with the same first move is dropped; a new move pushes the weakest old line out.
    pub(super) fn insert(&mut self, index: usize, line: SearchInfo) {
        self.lines = self.with(index, line);
        self.unreported = true;
    }

    /// The set as it would be with `line` in place at `index` (a bound on a line still
    /// being searched, say), best first and numbered.
    pub(super) fn ordered_with(&self, index: usize, line: SearchInfo) -> Vec<SearchInfo> {
        Self::numbered(self.with(index, line))
    }

    /// The set best first, numbered 1, 2, ...
    pub(super) fn ordered(&self) -> Vec<SearchInfo> {
        Self::numbered(self.lines.clone())
    }

    /// After a finished iteration all lines have the same depth: keep them best first.
    pub(super) fn sort(&mut self) {
        self.lines = self.ordered();
    }

    pub(super) fn reported(&mut self) {
        self.unreported = false;
    }

    pub(super) fn unreported(&self) -> bool {
        self.unreported
    }

    fn with(&self, index: usize, line: SearchInfo) -> Vec<SearchInfo> {
        let first = line.pv.first().copied();
        let mut lines: Vec<SearchInfo> = self.lines[..index.min(self.lines.len())].to_vec();
        lines.push(line);
        lines.extend(
            self.lines
                .iter()
                .skip(index)
                .filter(|l| l.pv.first().copied() != first)
                .cloned(),
        );
        lines.truncate(self.count);
        lines
    }

    /// Sorted by score, the stable sort keeping the search's order among equal scores.
    pub(super) fn numbered(mut lines: Vec<SearchInfo>) -> Vec<SearchInfo> {
        lines.sort_by_key(|l| -l.score);
        for (i, line) in lines.iter_mut().enumerate() {
            line.multipv = i + 1;
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::rules::Notation;
    use crate::types::Move;

    fn line(board: &Board, first: &str, score: Score) -> SearchInfo {
        SearchInfo::bare(1, 0, score, vec![board.parse_move(first).unwrap()])
    }

    fn firsts(lines: &[SearchInfo]) -> Vec<String> {
        lines.iter().map(|l| l.pv[0].to_string()).collect()
    }

    #[test]
    fn lines_keep_distinct_first_moves_best_first() {
        let board = Board::startpos();
        let mut set = MultiPv::new(3);
        for (i, (m, s)) in [("e2e4", 30), ("d2d4", 20), ("g1f3", 25)]
            .into_iter()
            .enumerate()
        {
            set.insert(i, line(&board, m, s));
        }
        assert_eq!(firsts(&set.ordered()), ["e2e4", "g1f3", "d2d4"]);
        set.sort();
        // The next iteration: its first line repeats the best move; its second finds the
        // old third line's move, which must not stay behind as a duplicate.
        set.insert(0, line(&board, "e2e4", 28));
        set.insert(1, line(&board, "d2d4", 27));
        let lines = set.ordered();
        assert_eq!(firsts(&lines), ["e2e4", "d2d4", "g1f3"]);
        assert_eq!(
            lines.iter().map(|l| l.multipv).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        // A move new to the set pushes the weakest old line out.
        let with = set.ordered_with(2, line(&board, "c2c4", 40));
        assert_eq!(firsts(&with), ["c2c4", "e2e4", "d2d4"]);
        assert!(with.windows(2).all(|w| w[0].score >= w[1].score));
        let moves: Vec<Move> = with.iter().map(|l| l.pv[0]).collect();
        assert!(
            moves
                .iter()
                .all(|m| moves.iter().filter(|n| *n == m).count() == 1)
        );
    }
}
