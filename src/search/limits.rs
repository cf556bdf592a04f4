//! What the caller asks of a search: how deep, how long, how many nodes, which moves.

use crate::types::Move;

/// The player's clock, as GUIs send it. Times may be zero or negative (a flag about to
/// fall); the time manager copes with either.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub time_ms: i64,
    pub inc_ms: i64,
    /// Moves until the next time control; `None` for sudden death or increment play.
    pub moves_to_go: Option<u32>,
}

/// Every way a search can be bounded; the first limit reached ends it. With none set the
/// search runs until stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    /// Stop once a mate in this many moves (or fewer) is found.
    pub mate: Option<u32>,
    /// Search until told to stop, whatever else is set (`go infinite`, analysis).
    pub infinite: bool,
    pub clock: Option<Clock>,
    /// Only these root moves are searched, when not empty (UCI `searchmoves`).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    pub fn depth(depth: i32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime_ms: Some(ms),
            ..Limits::default()
        }
    }
}
