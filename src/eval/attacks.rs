//! The attack maps the evaluation shares between its terms: the squares each side attacks,
//! by piece kind, in all and twice, each king's zone and the attack units against it.
//! Built once an evaluation, by `pieces::mobility` as it walks the pieces, then read by the
//! passed pawns, king safety and threats.

use crate::attacks::{king_attacks, pawn_attacks};
use crate::board::Board;
use crate::types::{Bitboard, Color, PieceType, Square};

/// The squares each side attacks, by kind and in all, and what its pieces threaten
/// around the enemy king.
pub struct Attacks {
    pub by_kind: [[Bitboard; 6]; 2],
    pub all: [Bitboard; 2],
    /// Squares attacked at least twice.
    pub twice: [Bitboard; 2],
    /// The king's square and those around it, for each side's king.
    pub king_zone: [Bitboard; 2],
    /// Attack units against each side's king from the pieces attacking its zone.
    pub king_units: [i32; 2],
}

impl Attacks {
    /// The pawns' and kings' attacks and the kings' zones; the other pieces' attacks are
    /// added with `record` (by `pieces::mobility`).
    #[inline(always)]
    pub fn new(board: &Board) -> Attacks {
        let mut attacks = Attacks {
            by_kind: [[Bitboard::EMPTY; 6]; 2],
            all: [Bitboard::EMPTY; 2],
            twice: [Bitboard::EMPTY; 2],
            king_zone: [Bitboard::EMPTY; 2],
            king_units: [0; 2],
        };
        for us in Color::ALL {
            let king = board.king_square(us);
            attacks.king_zone[us.index()] = board.king_zone(us);
            let pawns = board.pieces(us, PieceType::Pawn).pawn_attacks(us);
            attacks.record(us, PieceType::Pawn, pawns);
            attacks.record(us, PieceType::King, king_attacks(king));
        }
        attacks
    }

    /// Adds the squares a piece of `color` and `kind` attacks.
    #[inline(always)]
    pub fn record(&mut self, color: Color, kind: PieceType, attacks: Bitboard) {
        let c = color.index();
        self.twice[c] |= self.all[c] & attacks;
        self.all[c] |= attacks;
        self.by_kind[c][kind.index()] |= attacks;
    }
}

/// The pawns of `color` that defend `sq`.
#[inline(always)]
pub fn pawn_defenders(board: &Board, color: Color, sq: Square) -> Bitboard {
    pawn_attacks(!color, sq) & board.pieces(color, PieceType::Pawn)
}
