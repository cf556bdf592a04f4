//! Attack tables for the leapers (pawn, knight, king) and the square-pair tables `between` and
//! `line`, all computed at compile time.

use crate::types::{Bitboard, Color, Square};

/// Squares a leaper on `sq` reaches with the given (file, rank) steps.
const fn leaper(sq: usize, steps: &[(i8, i8)]) -> u64 {
    let (file, rank) = ((sq % 8) as i8, (sq / 8) as i8);
    let mut bb = 0;
    let mut i = 0;
    while i < steps.len() {
        let (f, r) = (file + steps[i].0, rank + steps[i].1);
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            bb |= 1 << (r * 8 + f);
        }
        i += 1;
    }
    bb
}

const fn leaper_table(steps: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = Bitboard(leaper(sq, steps));
        sq += 1;
    }
    table
}

const KNIGHT_STEPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

static KNIGHT: [Bitboard; 64] = leaper_table(&KNIGHT_STEPS);
static KING: [Bitboard; 64] = leaper_table(&KING_STEPS);
static PAWN: [[Bitboard; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

/// The eight queen directions as (file, rank) steps; the first four are rook directions.
pub(crate) const DIRECTIONS: [(i8, i8); 8] = [
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
pub(crate) const fn ray(sq: usize, dir: (i8, i8), occupied: u64) -> u64 {
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

#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

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
    fn leapers() {
        assert_eq!(knight_attacks(sq("a1")).count(), 2);
        assert_eq!(knight_attacks(sq("d4")).count(), 8);
        assert_eq!(king_attacks(sq("h8")).count(), 3);
        assert_eq!(king_attacks(sq("e4")).count(), 8);
        assert_eq!(
            pawn_attacks(Color::White, sq("e4")),
            sq("d5").bb() | sq("f5").bb()
        );
        assert_eq!(pawn_attacks(Color::Black, sq("a5")), sq("b4").bb());
        // The pawn table agrees with the set-wise shift.
        for s in Square::all() {
            for c in Color::ALL {
                assert_eq!(pawn_attacks(c, s), s.bb().pawn_attacks(c));
            }
        }
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
