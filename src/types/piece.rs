//! Piece kinds and coloured pieces.

use super::Color;
use std::fmt;

/// A kind of piece, without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceType {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl PieceType {
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case letter as in FEN and UCI promotions.
    pub const fn char(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    /// The kind named by a FEN letter of either case.
    pub const fn from_char(c: char) -> Option<PieceType> {
        match c.to_ascii_lowercase() {
            'p' => Some(PieceType::Pawn),
            'n' => Some(PieceType::Knight),
            'b' => Some(PieceType::Bishop),
            'r' => Some(PieceType::Rook),
            'q' => Some(PieceType::Queen),
            'k' => Some(PieceType::King),
            _ => None,
        }
    }
}

/// A piece of one colour. `Option<Piece>` fits in one byte. The colour is the low bit and
/// the kind the bits above it, so that both come out of a piece with one instruction (the
/// move picker and make/unmake ask for them at every move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[rustfmt::skip]
pub enum Piece {
    WhitePawn, BlackPawn, WhiteKnight, BlackKnight, WhiteBishop, BlackBishop,
    WhiteRook, BlackRook, WhiteQueen, BlackQueen, WhiteKing, BlackKing,
}

impl Piece {
    #[rustfmt::skip]
    const ALL: [Piece; 12] = [
        Piece::WhitePawn, Piece::BlackPawn, Piece::WhiteKnight, Piece::BlackKnight,
        Piece::WhiteBishop, Piece::BlackBishop, Piece::WhiteRook, Piece::BlackRook,
        Piece::WhiteQueen, Piece::BlackQueen, Piece::WhiteKing, Piece::BlackKing,
    ];

    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece::ALL[kind.index() * 2 + color.index()]
    }

    /// Index 0..12 for per-piece tables, in the order of `ALL`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    #[inline(always)]
    pub const fn color(self) -> Color {
        if (self as u8) & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    #[inline(always)]
    pub const fn kind(self) -> PieceType {
        PieceType::ALL[self as usize >> 1]
    }

    /// The FEN letter: upper case for White.
    pub const fn char(self) -> char {
        let c = self.kind().char();
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// The piece named by a FEN letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        match PieceType::from_char(c) {
            Some(kind) => Some(Piece::new(color, kind)),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for piece in Piece::ALL {
            assert_eq!(Piece::from_char(piece.char()), Some(piece));
            assert_eq!(Piece::new(piece.color(), piece.kind()), piece);
        }
        assert_eq!(Piece::from_char('N'), Some(Piece::WhiteKnight));
        assert_eq!(Piece::from_char('x'), None);
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
    }
}
