//! How a terminal game is set up: the person's side, the time control, Ferrum's strength
//! and what it plays with (table size, threads, tablebases, book).

use crate::book::Book;
use crate::evaluator::Evaluator;
use crate::search::{Strength, Syzygy};
use crate::types::Color;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::Rng;
use std::str::FromStr;
use std::sync::Arc;

/// A game's time control: minutes for the game plus seconds added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: i64,
    pub inc_ms: i64,
}

impl FromStr for TimeControl {
    type Err = String;

    /// `5+3` (five minutes, three seconds a move), `10` (ten minutes), `0.5+1`.
    fn from_str(text: &str) -> Result<TimeControl, String> {
        let bad = || format!("'{text}' is not a time control such as 5+3 (minutes+seconds)");
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let minutes: f64 = base.trim().parse().map_err(|_| bad())?;
        let seconds: f64 = inc.trim().parse().map_err(|_| bad())?;
        let valid = |v: f64| v.is_finite() && v >= 0.0;
        if !valid(minutes) || !valid(seconds) || minutes > 24.0 * 60.0 || seconds > 3600.0 {
            return Err(bad());
        }
        if minutes == 0.0 && seconds == 0.0 {
            return Err(format!("'{text}' leaves no time to play"));
        }
        Ok(TimeControl {
            base_ms: (minutes * 60_000.0).round() as i64,
            inc_ms: (seconds * 1000.0).round() as i64,
        })
    }
}

impl TimeControl {
    /// As PGN's `TimeControl` tag writes it: `300+3`.
    pub(super) fn pgn(self) -> String {
        format!("{}+{}", self.base_ms / 1000, self.inc_ms / 1000)
    }
}

/// The person's side: a colour, or one drawn at random.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    White,
    Black,
    Random,
}

impl FromStr for Side {
    type Err = String;

    fn from_str(text: &str) -> Result<Side, String> {
        match text.to_ascii_lowercase().as_str() {
            "white" | "w" => Ok(Side::White),
            "black" | "b" => Ok(Side::Black),
            "random" | "r" => Ok(Side::Random),
            _ => Err(format!("'{text}' is not a side (white, black or random)")),
        }
    }
}

impl Side {
    pub(super) fn color(self, rng: &mut ChaCha8Rng) -> Color {
        match self {
            Side::White => Color::White,
            Side::Black => Color::Black,
            Side::Random if rng.next_u64() & 1 == 0 => Color::White,
            Side::Random => Color::Black,
        }
    }
}

/// How a game is set up.
#[derive(Clone)]
pub struct Settings {
    pub side: Side,
    /// `None`: no clocks, and Ferrum thinks about a second a move.
    pub time_control: Option<TimeControl>,
    /// Ferrum's strength, when limited (UCI_Elo's scale).
    pub elo: Option<u32>,
    /// The position to start from (FEN), else the standard one.
    pub fen: Option<String>,
    /// Finished games are appended here as PGN.
    pub pgn_out: Option<std::path::PathBuf>,
    pub unicode: bool,
    pub hash_mb: usize,
    pub threads: usize,
    pub syzygy: Option<Syzygy>,
    /// What Ferrum evaluates with.
    pub evaluator: Evaluator,
    pub book: Option<Arc<Book>>,
}

impl Settings {
    /// Ferrum's strength limit, on the scale of the evaluation it plays with.
    pub fn strength(&self) -> Option<Strength> {
        self.elo
            .map(|elo| Strength::new(elo, self.evaluator.calibration()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            "5+3".parse(),
            Ok(TimeControl {
                base_ms: 300_000,
                inc_ms: 3_000
            })
        );
        assert_eq!(
            "0.5".parse(),
            Ok(TimeControl {
                base_ms: 30_000,
                inc_ms: 0
            })
        );
        for bad in ["", "5+", "five", "-1+2", "0+0", "inf", "5+3+1", "99999"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }
}
