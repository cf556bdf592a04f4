//! Attack tables of the leapers (pawn, knight, king), computed at compile time.

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
}
