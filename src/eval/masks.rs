//! Square sets the evaluation asks about, computed once at compile time.

use crate::types::{Bitboard, Color, Square};

const fn file_bb(file: i32) -> u64 {
    0x0101_0101_0101_0101 << file
}

/// Ranks strictly in front of `rank` for `color` (above it for White).
const fn ranks_ahead(color: Color, rank: i32) -> u64 {
    match color {
        Color::White => {
            if rank >= 7 {
                0
            } else {
                !0u64 << (8 * (rank + 1))
            }
        }
        Color::Black => {
            if rank <= 0 {
                0
            } else {
                !0u64 >> (8 * (8 - rank))
            }
        }
    }
}

const fn adjacent(file: i32) -> u64 {
    let mut bb = 0;
    if file > 0 {
        bb |= file_bb(file - 1);
    }
    if file < 7 {
        bb |= file_bb(file + 1);
    }
    bb
}

struct Tables {
    /// Squares in front of a pawn on its file, by colour and square.
    front: [[u64; 64]; 2],
    /// Squares in front on its file and the two beside: where enemy pawns stop a passer.
    passed: [[u64; 64]; 2],
    /// Squares on the adjacent files in front: where enemy pawns could attack the square.
    attack_span: [[u64; 64]; 2],
}

const TABLES: Tables = {
    let mut t = Tables {
        front: [[0; 64]; 2],
        passed: [[0; 64]; 2],
        attack_span: [[0; 64]; 2],
    };
    let mut c = 0;
    while c < 2 {
        let color = if c == 0 { Color::White } else { Color::Black };
        let mut sq = 0;
        while sq < 64 {
            let (file, rank) = (sq % 8, sq / 8);
            let ahead = ranks_ahead(color, rank);
            t.front[c][sq as usize] = ahead & file_bb(file);
            t.attack_span[c][sq as usize] = ahead & adjacent(file);
            t.passed[c][sq as usize] = ahead & (file_bb(file) | adjacent(file));
            sq += 1;
        }
        c += 1;
    }
    t
};

/// The squares in front of `sq` on its file, seen by `color`'s pawns.
#[inline(always)]
pub fn front(color: Color, sq: Square) -> Bitboard {
    Bitboard(TABLES.front[color.index()][sq.index()])
}

/// The squares an enemy pawn must not stand on for a pawn of `color` on `sq` to be passed.
#[inline(always)]
pub fn passed_span(color: Color, sq: Square) -> Bitboard {
    Bitboard(TABLES.passed[color.index()][sq.index()])
}

/// The squares on the adjacent files in front of `sq` (for `color`): pawns of `color` there
/// could one day attack the squares ahead of `sq` on its file.
#[inline(always)]
pub fn attack_span(color: Color, sq: Square) -> Bitboard {
    Bitboard(TABLES.attack_span[color.index()][sq.index()])
}

/// The files beside `file`.
#[inline(always)]
pub fn adjacent_files(file: u8) -> Bitboard {
    Bitboard(adjacent(file as i32))
}

/// The whole file of `file`.
#[inline(always)]
pub fn file(file: u8) -> Bitboard {
    Bitboard(file_bb(file as i32))
}

/// Squares of the same colour as `sq`.
#[inline(always)]
pub fn same_colour(sq: Square) -> Bitboard {
    const LIGHT: u64 = 0x55aa_55aa_55aa_55aa;
    if LIGHT & (1 << sq.index()) != 0 {
        Bitboard(LIGHT)
    } else {
        Bitboard(!LIGHT)
    }
}

/// King (Chebyshev) distance between two squares.
#[inline(always)]
pub fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn spans_point_forward() {
        assert_eq!(front(Color::White, sq("e6")).count(), 2);
        assert!(front(Color::Black, sq("e6")).contains(sq("e1")));
        assert!(passed_span(Color::White, sq("a5")).contains(sq("b6")));
        assert!(!passed_span(Color::White, sq("a5")).contains(sq("b5")));
        assert_eq!(attack_span(Color::Black, sq("h2")).count(), 1);
        assert_eq!(passed_span(Color::White, sq("d8")), Bitboard::EMPTY);
        assert_eq!(distance(sq("a1"), sq("h8")), 7);
        assert!(same_colour(sq("a1")).contains(sq("h8")));
    }
}
