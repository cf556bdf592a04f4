//! Moves packed into 16 bits: from-square (bits 0-5), to-square (6-11) and a kind (12-15).
//!
//! Castling is stored as "king takes own rook" (to = the rook's square), which covers standard
//! chess and Chess960 alike; `Board::move_to_uci` prints it in the notation a GUI expects.

use super::{PieceType, Square};
use std::fmt;

/// What a move does besides moving a piece, as the top four bits of a `Move`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveKind(u16);

impl MoveKind {
    pub const QUIET: MoveKind = MoveKind(0);
    pub const DOUBLE_PUSH: MoveKind = MoveKind(1);
    pub const CASTLE: MoveKind = MoveKind(2);
    pub const CAPTURE: MoveKind = MoveKind(4);
    pub const EN_PASSANT: MoveKind = MoveKind(5);
    /// Promotion kinds are `PROMOTION | (piece - 1)`, plus `CAPTURE` when they capture.
    pub const PROMOTION: MoveKind = MoveKind(8);
    pub const PROMOTION_CAPTURE: MoveKind = MoveKind(12);

    /// False for the three unused codes (3, 6 and 7).
    #[inline(always)]
    pub const fn is_defined(self) -> bool {
        !matches!(self.0, 3 | 6 | 7)
    }

    /// The promotion kind for `piece` (knight to queen), capturing or not.
    #[inline(always)]
    pub const fn promotion(piece: PieceType, capture: bool) -> MoveKind {
        let base = if capture { 12 } else { 8 };
        MoveKind(base | (piece as u16 - 1))
    }
}

/// A move. `Move::NONE` (all zero bits) is never a legal move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move(u16);

impl Move {
    pub const NONE: Move = Move(0);

    #[inline(always)]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | kind.0 << 12)
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 63) as u32)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked(((self.0 >> 6) & 63) as u32)
    }

    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        MoveKind(self.0 >> 12)
    }

    /// A move from bits made by `bits()`.
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    /// The raw 16 bits, for compact storage (transposition table, books).
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }

    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.0 & (4 << 12) != 0
    }

    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & (8 << 12) != 0
    }

    /// Captures and promotions: the moves quiescence search looks at.
    #[inline(always)]
    pub const fn is_noisy(self) -> bool {
        self.0 & (12 << 12) != 0
    }

    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.kind().0 == MoveKind::CASTLE.0
    }

    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.kind().0 == MoveKind::EN_PASSANT.0
    }

    #[inline(always)]
    pub const fn is_double_push(self) -> bool {
        self.kind().0 == MoveKind::DOUBLE_PUSH.0
    }

    /// Castling, en passant or a promotion: the moves that are more than one piece going
    /// from one square to another, with perhaps a capture on the second.
    #[inline(always)]
    pub const fn is_special(self) -> bool {
        const SPECIAL: u16 = 1 << MoveKind::CASTLE.0 | 1 << MoveKind::EN_PASSANT.0 | 0xff00;
        SPECIAL & (1 << (self.0 >> 12)) != 0
    }

    /// The piece a pawn becomes, for promotions.
    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceType> {
        if self.is_promotion() {
            Some(PieceType::ALL[((self.0 >> 12) & 3) as usize + 1])
        } else {
            None
        }
    }
}

/// Coordinate notation with castling as king-takes-rook (`e1h1`); see `Board::move_to_uci`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if *self == Move::NONE {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        match self.promotion() {
            Some(piece) => write!(f, "{}", piece.char()),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn fields_round_trip() {
        let m = Move::new(
            sq("e7"),
            sq("f8"),
            MoveKind::promotion(PieceType::Knight, true),
        );
        assert_eq!((m.from(), m.to()), (sq("e7"), sq("f8")));
        assert_eq!(m.promotion(), Some(PieceType::Knight));
        assert!(m.is_capture() && m.is_promotion() && m.is_noisy() && !m.is_castle());
        assert_eq!(m.to_string(), "e7f8n");

        let q = Move::new(
            sq("a2"),
            sq("a1"),
            MoveKind::promotion(PieceType::Queen, false),
        );
        assert!(!q.is_capture() && q.is_noisy());
        assert_eq!(q.to_string(), "a2a1q");

        let ep = Move::new(sq("e5"), sq("d6"), MoveKind::EN_PASSANT);
        assert!(ep.is_capture() && ep.is_en_passant() && ep.promotion().is_none());

        let castle = Move::new(sq("e1"), sq("h1"), MoveKind::CASTLE);
        assert!(castle.is_castle() && !castle.is_noisy());
        assert!(Move::new(sq("e2"), sq("e4"), MoveKind::DOUBLE_PUSH).is_double_push());
        assert_eq!(Move::NONE.to_string(), "0000");
    }

    #[test]
    fn special_kinds() {
        for kind in 0..16 {
            let m = Move::new(sq("e1"), sq("h1"), MoveKind(kind));
            let special = m.is_castle() || m.is_en_passant() || m.is_promotion();
            assert_eq!(m.is_special(), special, "kind {kind}");
        }
    }
}
