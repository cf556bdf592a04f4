//! The game phase, from the material on the board, and a pair of midgame and endgame
//! values blended by it. The board counts the phase as pieces come and go; the evaluation's
//! terms are `Phased` pairs.

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// Midgame and endgame centipawns for one term of the evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Phased {
    pub mg: i32,
    pub eg: i32,
}

/// Phase weight of each piece kind (pawn to king); the sum for the starting material is
/// `MAX_PHASE`, and 0 means bare kings and pawns.
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const MAX_PHASE: i32 = 24;

impl Phased {
    pub const ZERO: Phased = Phased { mg: 0, eg: 0 };

    pub const fn new(mg: i32, eg: i32) -> Phased {
        Phased { mg, eg }
    }

    /// The blend for `phase` (0 = endgame, `MAX_PHASE` = full midgame material). More
    /// material than the start (after promotions) counts as full midgame.
    #[inline(always)]
    pub const fn taper(self, phase: i32) -> i32 {
        let phase = if phase > MAX_PHASE { MAX_PHASE } else { phase };
        (self.mg * phase + self.eg * (MAX_PHASE - phase)) / MAX_PHASE
    }
}

impl Add for Phased {
    type Output = Phased;
    #[inline(always)]
    fn add(self, rhs: Phased) -> Phased {
        Phased::new(self.mg + rhs.mg, self.eg + rhs.eg)
    }
}

impl Sub for Phased {
    type Output = Phased;
    #[inline(always)]
    fn sub(self, rhs: Phased) -> Phased {
        Phased::new(self.mg - rhs.mg, self.eg - rhs.eg)
    }
}

impl Mul<i32> for Phased {
    type Output = Phased;
    #[inline(always)]
    fn mul(self, rhs: i32) -> Phased {
        Phased::new(self.mg * rhs, self.eg * rhs)
    }
}

impl Neg for Phased {
    type Output = Phased;
    #[inline(always)]
    fn neg(self) -> Phased {
        Phased::new(-self.mg, -self.eg)
    }
}

impl AddAssign for Phased {
    #[inline(always)]
    fn add_assign(&mut self, rhs: Phased) {
        *self = *self + rhs;
    }
}

impl SubAssign for Phased {
    #[inline(always)]
    fn sub_assign(&mut self, rhs: Phased) {
        *self = *self - rhs;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taper_blends() {
        let s = Phased::new(100, 20);
        assert_eq!(s.taper(MAX_PHASE), 100);
        assert_eq!(s.taper(0), 20);
        assert_eq!(s.taper(12), 60);
        assert_eq!(s.taper(30), 100);
        assert_eq!(-s + s, Phased::ZERO);
    }
}
