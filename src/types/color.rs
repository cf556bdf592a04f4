//! The two sides.

use std::fmt;
use std::ops::Not;
use std::str::FromStr;

/// A side: White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// Index for per-colour tables.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// +1 for White, -1 for Black: the sign of a score seen from White.
    #[inline(always)]
    pub const fn sign(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            Color::White => "w",
            Color::Black => "b",
        })
    }
}

impl FromStr for Color {
    type Err = String;
    fn from_str(s: &str) -> Result<Color, String> {
        match s {
            "w" => Ok(Color::White),
            "b" => Ok(Color::Black),
            _ => Err(format!("side to move must be 'w' or 'b', not '{s}'")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_flip() {
        assert_eq!("w".parse::<Color>(), Ok(Color::White));
        assert_eq!("b".parse::<Color>(), Ok(Color::Black));
        assert!("W".parse::<Color>().is_err());
        assert!("".parse::<Color>().is_err());
        assert_eq!(!Color::White, Color::Black);
        assert_eq!(Color::Black.to_string(), "b");
    }
}
