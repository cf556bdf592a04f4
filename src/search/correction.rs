//! Static-evaluation correction history: by the side to move and the pawn structure, how
//! far the searches' results have been from the static evaluation. The evaluation misjudges
//! some structures the same way again and again (a blockade it does not see, a weakness it
//! overrates); added to it, the learned difference makes the pruning decisions that rest on
//! the static evaluation better informed.

use crate::board::Board;
use crate::types::{Score, TB_BOUND};

/// Entries per side: indexed by the low bits of the pawn key.
const SIZE: usize = 1 << 14;
/// Entries hold centipawns times `GRAIN`, so that small updates are not lost to rounding.
const GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const LIMIT: i32 = 64;
/// An update moves an entry by at most `MAX_WEIGHT / 256` of the way to the new difference.
const MAX_WEIGHT: i32 = 16;

pub struct CorrectionHistory {
    table: Vec<[i32; SIZE]>,
}

impl Default for CorrectionHistory {
    fn default() -> CorrectionHistory {
        CorrectionHistory {
            table: vec![[0; SIZE]; 2],
        }
    }
}

impl CorrectionHistory {
    /// The entry's place: the side to move, and the low bits of the pawn key.
    #[inline(always)]
    fn slot(board: &Board) -> (usize, usize) {
        (
            board.side_to_move().index(),
            board.pawn_key() as usize & (SIZE - 1),
        )
    }

    /// `eval`, the static evaluation of `board`, corrected; never a mate score.
    #[inline(always)]
    pub fn correct(&self, board: &Board, eval: Score) -> Score {
        let (side, index) = Self::slot(board);
        (eval + self.table[side][index] / GRAIN).clamp(-TB_BOUND + 1, TB_BOUND - 1)
    }

    /// Learns that a search of `depth` found `board` worth `difference` more than its
    /// static evaluation: deeper searches move the entry further.
    pub fn update(&mut self, board: &Board, depth: i32, difference: Score) {
        let weight = (depth + 1).min(MAX_WEIGHT);
        let target = difference.clamp(-LIMIT, LIMIT) * GRAIN;
        let (side, index) = Self::slot(board);
        let slot = &mut self.table[side][index];
        *slot = (*slot * (256 - weight) + target * weight) / 256;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_a_steady_difference_up_to_the_limit() {
        let board = Board::startpos();
        let mut c = CorrectionHistory::default();
        assert_eq!(c.correct(&board, 10), 10);
        for _ in 0..2_000 {
            c.update(&board, 10, 30);
        }
        assert!(
            (38..=40).contains(&c.correct(&board, 10)),
            "{}",
            c.correct(&board, 10)
        );
        for _ in 0..2_000 {
            c.update(&board, 10, -500);
        }
        let low = c.correct(&board, 10);
        assert!((10 - LIMIT..=10 - LIMIT + 2).contains(&low), "{low}");
        // The other side to move has its own entry.
        let black =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(c.correct(&black, 10), 10);
    }
}
