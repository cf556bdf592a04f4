//! Sets of squares as 64-bit words, bit `n` standing for square `n`.

use super::{Color, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FULL: Bitboard = Bitboard(!0);
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    pub const RANK_1: Bitboard = Bitboard(0xff);
    pub const RANK_8: Bitboard = Bitboard(0xff << 56);

    /// The squares on `rank` (0 = first rank).
    #[inline(always)]
    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xff << (8 * rank))
    }

    /// The squares on `file` (0 = a-file).
    #[inline(always)]
    pub const fn file(file: u8) -> Bitboard {
        Bitboard(Self::FILE_A.0 << file)
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set holds two squares or more.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest square; the set must not be empty.
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::from_index_unchecked(self.0.trailing_zeros())
    }

    /// The set moved one rank forward, the way `color`'s pawns move.
    #[inline(always)]
    pub const fn forward(self, color: Color) -> Bitboard {
        match color {
            Color::White => Bitboard(self.0 << 8),
            Color::Black => Bitboard(self.0 >> 8),
        }
    }

    /// Squares attacked by pawns of `color` standing on this set.
    #[inline(always)]
    pub const fn pawn_attacks(self, color: Color) -> Bitboard {
        let up = self.forward(color).0;
        Bitboard(((up & !Self::FILE_A.0) >> 1) | ((up & !Self::FILE_H.0) << 1))
    }
}

/// Iterates the squares from lowest to highest, emptying a copy of the set.
impl Iterator for Bitboard {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.lsb();
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

macro_rules! bit_ops {
    ($($trait:ident $fn:ident $assign:ident $assign_fn:ident $op:tt),*) => {$(
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign for Bitboard {
            #[inline(always)]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    )*};
}
bit_ops!(BitAnd bitand BitAndAssign bitand_assign &, BitOr bitor BitOrAssign bitor_assign |,
         BitXor bitxor BitXorAssign bitxor_assign ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// An 8x8 grid, rank 8 at the top, `X` for a member square.
impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let mark = if self.contains(Square::new(file, rank)) {
                    'X'
                } else {
                    '.'
                };
                write!(f, "{mark}")?;
                if file < 7 {
                    write!(f, " ")?;
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterate_and_count() {
        let bb = Square::A1.bb() | Square::E1.bb() | Square::H8.bb();
        assert_eq!(bb.count(), 3);
        assert!(bb.more_than_one());
        assert!(!Square::E1.bb().more_than_one());
        assert_eq!(
            bb.collect::<Vec<_>>(),
            vec![Square::A1, Square::E1, Square::H8]
        );
    }

    #[test]
    fn pawn_attacks_stay_on_board() {
        let a2: Square = "a2".parse().unwrap();
        let h7: Square = "h7".parse().unwrap();
        assert_eq!(
            a2.bb().pawn_attacks(Color::White),
            "b3".parse::<Square>().unwrap().bb()
        );
        assert_eq!(
            h7.bb().pawn_attacks(Color::Black),
            "g6".parse::<Square>().unwrap().bb()
        );
        assert_eq!(Bitboard::RANK_8.pawn_attacks(Color::White), Bitboard::EMPTY);
    }

    #[test]
    fn display_grid() {
        let text = Square::A1.bb().to_string();
        assert_eq!(text.lines().count(), 8);
        assert_eq!(text.lines().last(), Some("X . . . . . . ."));
    }
}
