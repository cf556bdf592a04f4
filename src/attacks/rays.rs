//! Rays: the slow, obviously right walk along a line that the slider tables are built and
//! tested from, and the square-pair tables `between` and `line`, computed at compile time.

use crate::types::{Bitboard, Square};

/// The eight queen directions as (file, rank) steps; the first four are rook directions.
pub(super) const DIRECTIONS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// Walks from `sq` in direction `dir` until the edge or the first piece in `occupied`,
/// which is included: the slow, obviously right definition of slider attacks.
pub(super) const fn ray(sq: usize, dir: (i8, i8), occupied: u64) -> u64 {
    let (mut f, mut r) = ((sq % 8) as i8 + dir.0, (sq / 8) as i8 + dir.1);
    let mut bb = 0;
    while f >= 0 && f < 8 && r >= 0 && r < 8 {
        let bit = 1u64 << (r * 8 + f);
        bb |= bit;
        if occupied & bit != 0 {
            break;
        }
        f += dir.0;
        r += dir.1;
    }
    bb
}

/// For each pair of squares on a common line: the squares strictly between them (`between`)
/// and the whole line through both, edge to edge (`line`). Empty for unaligned pairs.
const fn pair_tables() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[Bitboard::EMPTY; 64]; 64];
    let mut line = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let dir = DIRECTIONS[d];
            let back = (-dir.0, -dir.1);
            let full = ray(a, dir, 0) | ray(a, back, 0) | 1 << a;
            let mut walk = ray(a, dir, 0);
            while walk != 0 {
                let b = walk.trailing_zeros() as usize;
                walk &= walk - 1;
                between[a][b] = Bitboard(ray(a, dir, 1 << b) & !(1 << b));
                line[a][b] = Bitboard(full);
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static PAIRS: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = pair_tables();

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    PAIRS.0[a.index()][b.index()]
}

/// The full line through `a` and `b` when they are aligned, else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    PAIRS.1[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn pairs() {
        assert_eq!(between(sq("a1"), sq("d4")), sq("b2").bb() | sq("c3").bb());
        assert_eq!(between(sq("e1"), sq("e2")), Bitboard::EMPTY);
        assert_eq!(between(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(line(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(line(sq("c3"), sq("e5")).count(), 8);
        assert!(line(sq("e1"), sq("e4")).contains(sq("e8")));
        for a in Square::all() {
            for b in Square::all() {
                assert_eq!(between(a, b), between(b, a));
                assert_eq!(line(a, b), line(b, a));
                if line(a, b).any() {
                    assert!(line(a, b).contains(a) && line(a, b).contains(b));
                    assert_eq!(between(a, b) & !line(a, b), Bitboard::EMPTY);
                }
            }
        }
    }
}
