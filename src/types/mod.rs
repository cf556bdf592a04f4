//! Small primitive types shared by every part of the engine, one file each.

mod bitboard;
mod castling;
mod color;
mod moves;
mod phase;
mod piece;
mod score;
mod square;

pub use bitboard::Bitboard;
pub use castling::{CastlingRights, Wing};
pub use color::Color;
pub use moves::{Move, MoveKind};
pub use phase::{MAX_PHASE, PHASE_WEIGHT, Phased};
pub use piece::{Piece, PieceType};
pub use score::{
    DRAW, INFINITY, MATE, MATE_BOUND, MAX_PLY, Score, TB_BOUND, TB_WIN, UciScore, is_decisive,
    is_mate, score_text,
};
pub use square::Square;
