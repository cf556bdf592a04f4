//! Perft: counting the leaves of the legal move tree, the standard test of a move generator.

use super::generate::legal_moves;
use crate::board::Board;
use crate::types::Move;

/// Number of leaf nodes `depth` plies below the position. The last ply is counted in bulk
/// from the length of the move list, without making the moves.
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(board);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &m in moves.iter() {
        board.make_move(m);
        nodes += perft(board, depth - 1);
        board.unmake_move();
    }
    nodes
}

/// Leaf counts below each legal root move, in generation order.
pub fn divide(board: &mut Board, depth: u32) -> Vec<(Move, u64)> {
    let moves = legal_moves(board);
    moves
        .iter()
        .map(|&m| {
            board.make_move(m);
            let nodes = perft(board, depth.saturating_sub(1));
            board.unmake_move();
            (m, nodes)
        })
        .collect()
}
