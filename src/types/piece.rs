//! Piece kinds and coloured pieces.

use super::Color;
use std::fmt;

/// A kind of piece, without colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
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
#[repr(u8)]
#[rustfmt::skip]
pub enum Piece {
    WhitePawn, BlackPawn, WhiteKnight, BlackKnight, WhiteBishop, BlackBishop,
    WhiteRook, BlackRook, WhiteQueen, BlackQueen, WhiteKing, BlackKing,
}

impl Piece {
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        // SAFETY: a kind (0..=5) times two plus a colour (0 or 1) is a piece's value.
        unsafe { std::mem::transmute::<u8, Piece>((kind as u8) << 1 | color.index() as u8) }
    }

    /// Index 0..12 for per-piece tables: the kind times two plus the colour.
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
        // SAFETY: a piece's value halved is its kind's (0..=5). A cast where indexing
        // `PieceType::ALL` would load from memory on the way to every board update.
        unsafe { std::mem::transmute::<u8, PieceType>(self as u8 >> 1) }
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
        for kind in PieceType::ALL {
            for color in [Color::White, Color::Black] {
                let piece = Piece::new(color, kind);
                assert_eq!((piece.color(), piece.kind()), (color, kind));
                assert_eq!(piece.index(), kind.index() * 2 + color.index());
                assert_eq!(Piece::from_char(piece.char()), Some(piece));
            }
        }
        assert_eq!(Piece::from_char('N'), Some(Piece::WhiteKnight));
        assert_eq!(Piece::from_char('x'), None);
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 1);
    }
}
