//! Castling rights that remember which rook each right belongs to, so Chess960 works.

use super::{Color, Square};
use std::fmt;

/// The side of the king a castling rook starts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wing {
    /// Towards the h-file: O-O.
    King = 0,
    /// Towards the a-file: O-O-O.
    Queen = 1,
}

impl Wing {
    pub const ALL: [Wing; 2] = [Wing::King, Wing::Queen];

    /// Where the king ends up, on `color`'s first rank.
    #[inline(always)]
    pub const fn king_target(self, color: Color) -> Square {
        match self {
            Wing::King => Square::G1.relative(color),
            Wing::Queen => Square::C1.relative(color),
        }
    }

    /// Where the rook ends up, on `color`'s first rank.
    #[inline(always)]
    pub const fn rook_target(self, color: Color) -> Square {
        match self {
            Wing::King => Square::F1.relative(color),
            Wing::Queen => Square::D1.relative(color),
        }
    }
}

/// Up to four rights (White O-O, White O-O-O, Black O-O, Black O-O-O), each with its rook's file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CastlingRights {
    /// Bit `2 * color + wing` is set while that right is held.
    bits: u8,
    /// The rook's file for each right, meaningful while its bit is set.
    rook_files: [u8; 4],
}

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights {
        bits: 0,
        rook_files: [0; 4],
    };

    #[inline(always)]
    const fn slot(color: Color, wing: Wing) -> usize {
        2 * color as usize + wing as usize
    }

    /// The rights as a 4-bit number, for Zobrist keys and masks.
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        self.bits
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.bits == 0
    }

    #[inline(always)]
    pub const fn has(self, color: Color, wing: Wing) -> bool {
        self.bits & (1 << Self::slot(color, wing)) != 0
    }

    /// The square of the rook that castles on `wing`, while the right is held.
    #[inline(always)]
    pub const fn rook_square(self, color: Color, wing: Wing) -> Option<Square> {
        if self.has(color, wing) {
            let file = self.rook_files[Self::slot(color, wing)];
            Some(Square::new(file, 0).relative(color))
        } else {
            None
        }
    }

    /// The bit a right occupies in `bits()`.
    #[inline(always)]
    pub const fn mask(color: Color, wing: Wing) -> u8 {
        1 << Self::slot(color, wing)
    }

    /// Grants a right with its rook on `file`.
    pub fn add(&mut self, color: Color, wing: Wing, file: u8) {
        let slot = Self::slot(color, wing);
        self.bits |= 1 << slot;
        self.rook_files[slot] = file;
    }

    /// Keeps only the rights whose bits are set in `mask`.
    #[inline(always)]
    pub fn retain(&mut self, mask: u8) {
        self.bits &= mask;
    }
}

/// Shredder-FEN letters (`HAha`), which name every rook unambiguously; `-` when there are none.
impl fmt::Display for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("-");
        }
        for color in Color::ALL {
            for wing in Wing::ALL {
                if let Some(rook) = self.rook_square(color, wing) {
                    let letter = (b'a' + rook.file()) as char;
                    let letter = match color {
                        Color::White => letter.to_ascii_uppercase(),
                        Color::Black => letter,
                    };
                    write!(f, "{letter}")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rights_and_rooks() {
        let mut rights = CastlingRights::NONE;
        assert_eq!(rights.to_string(), "-");
        rights.add(Color::White, Wing::King, 7);
        rights.add(Color::Black, Wing::Queen, 1);
        assert!(rights.has(Color::White, Wing::King));
        assert!(!rights.has(Color::White, Wing::Queen));
        assert_eq!(
            rights.rook_square(Color::Black, Wing::Queen),
            "b8".parse().ok()
        );
        assert_eq!(rights.to_string(), "Hb");
        rights.retain(!CastlingRights::mask(Color::White, Wing::King));
        assert_eq!(rights.to_string(), "b");
        assert_eq!(rights.bits(), 8);
    }

    #[test]
    fn targets() {
        assert_eq!(Wing::King.king_target(Color::Black).to_string(), "g8");
        assert_eq!(Wing::Queen.rook_target(Color::White), Square::D1);
    }
}
