//! Board squares, numbered a1 = 0, b1 = 1, ..., h8 = 63 (little-endian rank-file mapping).

use super::{Bitboard, Color};
use std::fmt;
use std::str::FromStr;

/// One of the 64 squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const A1: Square = Square(0);
    pub const C1: Square = Square(2);
    pub const D1: Square = Square(3);
    pub const E1: Square = Square(4);
    pub const F1: Square = Square(5);
    pub const G1: Square = Square(6);
    pub const H1: Square = Square(7);
    pub const E8: Square = Square(60);
    pub const H8: Square = Square(63);

    /// The square with this index; `None` unless `index < 64`.
    #[inline(always)]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square on `file` (0 = a) and `rank` (0 = first); both must be below 8.
    #[inline(always)]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 8 && rank < 8);
        Square(rank * 8 + file)
    }

    /// Builds a square from an index already known to be below 64 (bit scans, masked values).
    #[inline(always)]
    pub const fn from_index_unchecked(index: u32) -> Square {
        debug_assert!(index < 64);
        Square(index as u8)
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    #[inline(always)]
    pub const fn bb(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    /// The same square seen from Black's side (a1 <-> a8).
    #[inline(always)]
    pub const fn flip(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// This square from `color`'s point of view: itself for White, flipped for Black.
    #[inline(always)]
    pub const fn relative(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }

    /// The square `delta` steps away in index order; the caller knows it stays on the board.
    #[inline(always)]
    pub const fn offset(self, delta: i8) -> Square {
        let to = self.0 as i8 + delta;
        debug_assert!(to >= 0 && to < 64);
        Square(to as u8)
    }

    /// For an en-passant target square (3rd or 6th rank), the square of the pawn that the
    /// capture removes: the same file, one rank nearer the middle.
    #[inline(always)]
    pub const fn en_passant_victim(self) -> Square {
        Square(self.0 ^ 8)
    }

    /// All 64 squares from a1 to h8.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

impl FromStr for Square {
    type Err = String;
    fn from_str(s: &str) -> Result<Square, String> {
        match s.as_bytes() {
            &[f @ b'a'..=b'h', r @ b'1'..=b'8'] => Ok(Square::new(f - b'a', r - b'1')),
            _ => Err(format!("'{s}' is not a square (a1 to h8)")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!(Square::E1.to_string(), "e1");
        assert_eq!(Square::H8.to_string(), "h8");
        for bad in ["", "a", "i1", "a9", "a0", "e1x", "E1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn geometry() {
        let sq: Square = "c6".parse().unwrap();
        assert_eq!((sq.file(), sq.rank()), (2, 5));
        assert_eq!(sq.flip().to_string(), "c3");
        assert_eq!(sq.relative(Color::White), sq);
        assert_eq!(Square::from_index(64), None);
        assert_eq!(
            "d6".parse::<Square>()
                .unwrap()
                .en_passant_victim()
                .to_string(),
            "d5"
        );
        assert_eq!(
            "e3".parse::<Square>()
                .unwrap()
                .en_passant_victim()
                .to_string(),
            "e4"
        );
    }
}
