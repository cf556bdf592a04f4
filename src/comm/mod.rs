//! Text front ends. For now a synchronous console; the UCI and XBoard protocols come next.

pub mod console;

use crate::board::Board;
use crate::search::{Bound, SearchInfo};
use crate::types::UciScore;

/// A search line in UCI `info` form, with moves in the board's notation.
pub fn format_info(board: &Board, info: &SearchInfo) -> String {
    let bound = match info.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    let ms = info.time.as_millis().max(1);
    let nps = info.nodes as u128 * 1000 / ms;
    let pv = pv_text(board, &info.pv);
    format!(
        "info depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {nps} hashfull {} time {} pv {pv}",
        info.depth,
        info.seldepth,
        info.multipv,
        UciScore(info.score),
        info.nodes,
        info.hashfull,
        info.time.as_millis()
    )
}

/// Moves of a line in coordinate notation, each in the position it is played from.
pub fn pv_text(board: &Board, pv: &[crate::types::Move]) -> String {
    let mut board = board.clone();
    let mut words = Vec::with_capacity(pv.len());
    for &m in pv {
        words.push(board.move_to_uci(m));
        board.make_move(m);
    }
    words.join(" ")
}
