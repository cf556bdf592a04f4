//! Moves from text: UCI coordinate notation (standard chess and Chess960) and SAN, checked
//! against the legal moves. Printing in coordinate notation needs no legal moves and stays
//! with the board (`Board::move_to_uci`).

use super::san;
use crate::board::Board;
use crate::movegen::legal_moves;
use crate::types::{Move, PieceType, Square, Wing};
use std::fmt;

/// Why a move given as text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not coordinate notation such as `e2e4` or `e7e8q`.
    Malformed(String),
    /// Well formed, but not a legal move in the position.
    Illegal(String),
    /// SAN that fits more than one legal move.
    Ambiguous(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MoveError::Malformed(m) => {
                write!(f, "'{m}' is not a move in coordinate notation or SAN")
            }
            MoveError::Illegal(m) => write!(f, "'{m}' is not a legal move here"),
            MoveError::Ambiguous(m) => write!(f, "'{m}' fits more than one legal move"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Moves as text, read against the legal moves of the position (and SAN written with them).
pub trait Notation {
    /// Reads a legal move in coordinate notation. Castling is accepted both as
    /// king-takes-rook and as king-to-target, whichever mode is on, when that reading is not
    /// an ordinary king move.
    fn parse_move(&self, text: &str) -> Result<Move, MoveError>;

    /// Reads a legal move in SAN. Lenient where it is harmless: check marks and annotations
    /// (`+ # ! ?`) are ignored, castling may be written with zeros, the `x` and the `=` of a
    /// promotion may be left out.
    fn parse_san(&self, text: &str) -> Result<Move, MoveError>;

    /// Reads a move in coordinate notation or SAN, whichever it is.
    fn parse_any_move(&self, text: &str) -> Result<Move, MoveError>;

    /// The move in SAN, with `+` or `#` when it checks or mates.
    fn move_to_san(&self, m: Move) -> String;
}

impl Notation for Board {
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        parse_coordinates(self, text)
    }

    fn parse_san(&self, text: &str) -> Result<Move, MoveError> {
        san::parse(self, text)
    }

    fn parse_any_move(&self, text: &str) -> Result<Move, MoveError> {
        match self.parse_move(text) {
            Ok(m) => Ok(m),
            Err(MoveError::Malformed(_)) => self.parse_san(text),
            Err(e) => self.parse_san(text).map_err(|_| e),
        }
    }

    fn move_to_san(&self, m: Move) -> String {
        san::write(self, m)
    }
}

/// `Notation::parse_move`.
fn parse_coordinates(board: &Board, text: &str) -> Result<Move, MoveError> {
    let malformed = || MoveError::Malformed(text.to_string());
    // ASCII only, so that the byte offsets below fall on character boundaries.
    if !text.is_ascii() {
        return Err(malformed());
    }
    let (squares, promotion) = match text.len() {
        4 => (text, None),
        5 => {
            let (squares, letter) = text.split_at(4);
            let kind = letter.chars().next().and_then(PieceType::from_char);
            match kind {
                Some(
                    k
                    @ (PieceType::Knight | PieceType::Bishop | PieceType::Rook | PieceType::Queen),
                ) if letter.chars().all(|c| c.is_ascii_lowercase()) => (squares, Some(k)),
                _ => return Err(malformed()),
            }
        }
        _ => return Err(malformed()),
    };
    let (from, to) = match (squares.get(..2), squares.get(2..)) {
        (Some(a), Some(b)) => (
            a.parse::<Square>().map_err(|_| malformed())?,
            b.parse::<Square>().map_err(|_| malformed())?,
        ),
        _ => return Err(malformed()),
    };
    let side = board.side_to_move();
    let moves = legal_moves(board);
    let exact = moves
        .iter()
        .find(|m| m.from() == from && m.to() == to && m.promotion() == promotion);
    let castle_by_target = || {
        moves.iter().find(|m| {
            let wing = if m.to() > m.from() {
                Wing::King
            } else {
                Wing::Queen
            };
            m.is_castle() && m.from() == from && wing.king_target(side) == to && promotion.is_none()
        })
    };
    exact
        .or_else(castle_by_target)
        .copied()
        .ok_or_else(|| MoveError::Illegal(text.to_string()))
}
