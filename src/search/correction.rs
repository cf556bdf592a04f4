//! Static-evaluation correction history: by the side to move and the pawn structure (and by
//! each side's placement of its other pieces), how far the searches' results have been from
//! the static evaluation. The evaluation misjudges some structures the same way again and
//! again (a blockade it does not see, a weakness it overrates); added to it, the learned
//! difference makes the pruning decisions that rest on the static evaluation better
//! informed.

use crate::board::Board;
use crate::types::{Color, Score, TB_BOUND};

/// Entries per side in each table: indexed by the low bits of the table's key.
const SIZE: usize = 1 << 14;
/// Entries hold centipawns times `GRAIN`, so that small updates are not lost to rounding.
const GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const LIMIT: i32 = 64;
/// An update moves an entry by at most `MAX_WEIGHT / 256` of the way to the new difference.
const MAX_WEIGHT: i32 = 16;

/// Tables indexed by the side to move and the low bits of a key: of the pawns, and of
/// White's and Black's other pieces.
pub struct CorrectionHistory {
    pawn: Vec<[i32; SIZE]>,
    non_pawn: Vec<[i32; SIZE]>,
}

/// How much each table counts in the correction, in percent.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    pub pawn: i32,
    pub non_pawn: i32,
}

impl Default for CorrectionHistory {
    fn default() -> CorrectionHistory {
        CorrectionHistory {
            pawn: vec![[0; SIZE]; 2],
            non_pawn: vec![[0; SIZE]; 4],
        }
    }
}

impl CorrectionHistory {
    /// The entries' places: the pawn table's, then White's and Black's non-pawn tables'.
    #[inline(always)]
    fn slots(board: &Board) -> (usize, [usize; 3]) {
        let side = board.side_to_move().index();
        let index = |key: u64| key as usize & (SIZE - 1);
        (
            side,
            [
                index(board.pawn_key()),
                index(board.non_pawn_key(Color::White)),
                index(board.non_pawn_key(Color::Black)),
            ],
        )
    }

    /// `eval`, the static evaluation of `board`, corrected; never a mate score.
    #[inline(always)]
    pub fn correct(&self, board: &Board, eval: Score, weights: Weights) -> Score {
        let (side, [pawn, white, black]) = Self::slots(board);
        let non_pawn = self.non_pawn[side][white] + self.non_pawn[2 + side][black];
        let sum = self.pawn[side][pawn] * weights.pawn + non_pawn * weights.non_pawn;
        (eval + sum / (100 * GRAIN)).clamp(-TB_BOUND + 1, TB_BOUND - 1)
    }

    /// Learns that a search of `depth` found `board` worth `difference` more than its
    /// static evaluation: deeper searches move the entries further.
    pub fn update(&mut self, board: &Board, depth: i32, difference: Score) {
        let weight = (depth + 1).min(MAX_WEIGHT);
        let target = difference.clamp(-LIMIT, LIMIT) * GRAIN;
        let (side, [pawn, white, black]) = Self::slots(board);
        let learn = |slot: &mut i32| *slot = (*slot * (256 - weight) + target * weight) / 256;
        learn(&mut self.pawn[side][pawn]);
        learn(&mut self.non_pawn[side][white]);
        learn(&mut self.non_pawn[2 + side][black]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAWN: Weights = Weights {
        pawn: 100,
        non_pawn: 0,
    };

    #[test]
    fn learns_a_steady_difference_up_to_the_limit() {
        let board = Board::startpos();
        let mut c = CorrectionHistory::default();
        assert_eq!(c.correct(&board, 10, PAWN), 10);
        for _ in 0..2_000 {
            c.update(&board, 10, 30);
        }
        assert!(
            (38..=40).contains(&c.correct(&board, 10, PAWN)),
            "{}",
            c.correct(&board, 10, PAWN)
        );
        for _ in 0..2_000 {
            c.update(&board, 10, -500);
        }
        let low = c.correct(&board, 10, PAWN);
        assert!((10 - LIMIT..=10 - LIMIT + 2).contains(&low), "{low}");
        // The other side to move has its own entry.
        let black =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(c.correct(&black, 10, PAWN), 10);
    }

    #[test]
    fn non_pawn_tables_follow_each_sides_pieces() {
        const NON_PAWN: Weights = Weights {
            pawn: 0,
            non_pawn: 50,
        };
        let board = Board::startpos();
        let mut c = CorrectionHistory::default();
        for _ in 0..2_000 {
            c.update(&board, 10, 40);
        }
        // Each side's table has learned 40, at half weight each.
        assert!((49..=50).contains(&c.correct(&board, 10, NON_PAWN)));
        // The same pawns with White's knight elsewhere: Black's table still applies.
        let moved =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1").unwrap();
        assert!((29..=30).contains(&c.correct(&moved, 10, NON_PAWN)));
        assert!((49..=50).contains(&c.correct(&moved, 10, PAWN)));
    }
}
