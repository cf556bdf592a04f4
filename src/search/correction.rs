//! Static-evaluation correction history: by the side to move and the pawn structure (and by
//! each side's placement of its other pieces, and by the last two moves), how far the
//! searches' results have been from the static evaluation. The evaluation misjudges some
//! structures the same way again and again (a blockade it does not see, a weakness it
//! overrates); added to it, the learned difference makes the pruning decisions that rest
//! on the static evaluation better informed.

use super::history::MOVES;
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
/// White's and Black's other pieces; and one by the last two moves (`Moves`).
pub struct CorrectionHistory {
    pawn: Vec<[i32; SIZE]>,
    non_pawn: Vec<[i32; SIZE]>,
    continuation: Vec<i32>,
}

/// How much each table counts in the correction, in percent; a table of weight 0 is
/// neither read nor written.
#[derive(Clone, Copy, Debug)]
pub struct Weights {
    pub pawn: i32,
    pub non_pawn: i32,
    pub continuation: i32,
}

/// The moves that led to a position, as `history::move_index` gives them (`MOVES` for a
/// null move or none): two plies back and one. The pieces' colours in them stand for the
/// side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moves(pub usize, pub usize);

impl Moves {
    #[inline(always)]
    fn index(self) -> usize {
        self.0 * (MOVES + 1) + self.1
    }
}

impl Default for CorrectionHistory {
    fn default() -> CorrectionHistory {
        CorrectionHistory {
            pawn: vec![[0; SIZE]; 2],
            non_pawn: vec![[0; SIZE]; 4],
            continuation: vec![0; (MOVES + 1) * (MOVES + 1)],
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

    /// `eval`, the static evaluation of `board` reached by `moves`, corrected; never a
    /// mate score.
    #[inline(always)]
    pub fn correct(&self, board: &Board, moves: Moves, eval: Score, weights: Weights) -> Score {
        let (side, [pawn, white, black]) = Self::slots(board);
        let non_pawn = self.non_pawn[side][white] + self.non_pawn[2 + side][black];
        let mut sum = self.pawn[side][pawn] * weights.pawn + non_pawn * weights.non_pawn;
        if weights.continuation != 0 {
            sum += self.continuation[moves.index()] * weights.continuation;
        }
        (eval + sum / (100 * GRAIN)).clamp(-TB_BOUND + 1, TB_BOUND - 1)
    }

    /// Learns that a search of `depth` found `board`, reached by `moves`, worth
    /// `difference` more than its static evaluation: deeper searches move the entries
    /// further.
    pub fn update(
        &mut self,
        board: &Board,
        moves: Moves,
        depth: i32,
        difference: Score,
        weights: Weights,
    ) {
        let weight = (depth + 1).min(MAX_WEIGHT);
        let target = difference.clamp(-LIMIT, LIMIT) * GRAIN;
        let (side, [pawn, white, black]) = Self::slots(board);
        let learn = |slot: &mut i32| *slot = (*slot * (256 - weight) + target * weight) / 256;
        learn(&mut self.pawn[side][pawn]);
        learn(&mut self.non_pawn[side][white]);
        learn(&mut self.non_pawn[2 + side][black]);
        if weights.continuation != 0 {
            learn(&mut self.continuation[moves.index()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAWN: Weights = Weights {
        pawn: 100,
        non_pawn: 0,
        continuation: 0,
    };
    /// No moves before the position.
    const ROOT: Moves = Moves(MOVES, MOVES);

    #[test]
    fn learns_a_steady_difference_up_to_the_limit() {
        let board = Board::startpos();
        let mut c = CorrectionHistory::default();
        assert_eq!(c.correct(&board, ROOT, 10, PAWN), 10);
        for _ in 0..2_000 {
            c.update(&board, ROOT, 10, 30, PAWN);
        }
        assert!(
            (38..=40).contains(&c.correct(&board, ROOT, 10, PAWN)),
            "{}",
            c.correct(&board, ROOT, 10, PAWN)
        );
        for _ in 0..2_000 {
            c.update(&board, ROOT, 10, -500, PAWN);
        }
        let low = c.correct(&board, ROOT, 10, PAWN);
        assert!((10 - LIMIT..=10 - LIMIT + 2).contains(&low), "{low}");
        // The other side to move has its own entry.
        let black =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(c.correct(&black, ROOT, 10, PAWN), 10);
    }

    #[test]
    fn non_pawn_tables_follow_each_sides_pieces() {
        const NON_PAWN: Weights = Weights {
            pawn: 0,
            non_pawn: 50,
            continuation: 0,
        };
        let board = Board::startpos();
        let mut c = CorrectionHistory::default();
        for _ in 0..2_000 {
            c.update(&board, ROOT, 10, 40, NON_PAWN);
        }
        // Each side's table has learned 40, at half weight each.
        assert!((49..=50).contains(&c.correct(&board, ROOT, 10, NON_PAWN)));
        // The same pawns with White's knight elsewhere: Black's table still applies.
        let moved =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1").unwrap();
        assert!((29..=30).contains(&c.correct(&moved, ROOT, 10, NON_PAWN)));
        assert!((49..=50).contains(&c.correct(&moved, ROOT, 10, PAWN)));
    }

    #[test]
    fn the_continuation_table_follows_the_last_two_moves_when_weighted() {
        const CONTINUATION: Weights = Weights {
            pawn: 0,
            non_pawn: 0,
            continuation: 100,
        };
        let board = Board::startpos();
        let (one, other) = (Moves(3, 700), Moves(700, 3));
        let mut c = CorrectionHistory::default();
        for _ in 0..2_000 {
            c.update(&board, one, 10, 40, PAWN);
        }
        assert_eq!(
            c.correct(&board, one, 10, CONTINUATION),
            10,
            "weight 0: not learned"
        );
        for _ in 0..2_000 {
            c.update(&board, one, 10, 40, CONTINUATION);
        }
        assert!((49..=50).contains(&c.correct(&board, one, 10, CONTINUATION)));
        assert_eq!(c.correct(&board, other, 10, CONTINUATION), 10);
        assert_eq!(
            c.correct(&board, one, 10, PAWN),
            c.correct(&board, other, 10, PAWN)
        );
    }
}
