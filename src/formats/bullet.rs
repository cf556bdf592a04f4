//! Bulletformat: one position in 32 bytes, as the `bullet` trainer reads it and the
//! `bulletformat` crate defines it (`ChessBoard`), the format Ferrum's trainer reads.
//!
//! Everything is seen from the side to move: the board is flipped vertically when Black is
//! to move, the score is the side to move's, and so is the result (0 loss, 1 draw, 2 win
//! in half points). Little-endian: occupancy (u64); a 4-bit code for each occupied square
//! in ascending order (piece type 0-5, plus 8 for the side not to move); score (i16);
//! result (u8); the side to move's king square; the other king's square, flipped; three
//! spare bytes.

use crate::board::Board;
use crate::types::{Color, PieceType};
use bulletformat::ChessBoard;

/// The bytes of one position.
pub const RECORD: usize = 32;

/// `board` with the search score and the game's result, both from White's view (result
/// 0.0, 0.5 or 1.0).
pub fn record(board: &Board, white_score: i16, white_result: f32) -> Result<ChessBoard, String> {
    let mut bbs = [0u64; 8];
    bbs[0] = board.color(Color::White).0;
    bbs[1] = board.color(Color::Black).0;
    for kind in PieceType::ALL {
        bbs[2 + kind.index()] =
            (board.pieces(Color::White, kind) | board.pieces(Color::Black, kind)).0;
    }
    let stm = usize::from(board.side_to_move() == Color::Black);
    ChessBoard::from_raw(bbs, stm, white_score, white_result)
}

/// A record's 32 bytes.
pub fn to_bytes(position: &ChessBoard) -> [u8; RECORD] {
    let mut out = [0; RECORD];
    out[0..8].copy_from_slice(&position.occ.to_le_bytes());
    out[8..24].copy_from_slice(&position.pcs);
    out[24..26].copy_from_slice(&position.score.to_le_bytes());
    out[26] = position.result;
    out[27] = position.ksq;
    out[28] = position.opp_ksq;
    out[29..32].copy_from_slice(&position.extra);
    out
}

/// The record in 32 bytes, or what is wrong with it (a reader of untrusted files must not
/// index the feature tables with a bad code).
pub fn from_bytes(bytes: &[u8; RECORD]) -> Result<ChessBoard, String> {
    let mut pcs = [0; 16];
    pcs.copy_from_slice(&bytes[8..24]);
    let position = ChessBoard {
        occ: u64::from_le_bytes(bytes[0..8].try_into().unwrap_or([0; 8])),
        pcs,
        score: i16::from_le_bytes([bytes[24], bytes[25]]),
        result: bytes[26],
        ksq: bytes[27],
        opp_ksq: bytes[28],
        extra: [bytes[29], bytes[30], bytes[31]],
    };
    let pieces = position.occ.count_ones();
    if !(2..=32).contains(&pieces) {
        return Err(format!("{pieces} pieces"));
    }
    if position.result > 2 {
        return Err(format!("result {}", position.result));
    }
    if let Some((code, sq)) = position.into_iter().find(|&(code, _)| code & 7 > 5) {
        return Err(format!("piece code {code} on square {sq}"));
    }
    Ok(position)
}

/// The pieces of a record: (piece type 0-5, belongs to the side to move, square as the
/// side to move sees it).
pub fn pieces(position: &ChessBoard) -> impl Iterator<Item = (usize, bool, usize)> {
    position
        .into_iter()
        .map(|(code, sq)| (usize::from(code & 7), code & 8 == 0, usize::from(sq)))
}
