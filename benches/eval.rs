//! Static evaluation, and the make/unmake pair that keeps its sums up to date.

use criterion::{Criterion, criterion_group, criterion_main};
use ferrum::board::Board;
use ferrum::eval::{PawnTable, evaluate};
use ferrum::movegen::legal_moves;
use std::hint::black_box;

fn eval_benches(c: &mut Criterion) {
    let boards: Vec<Board> = ferrum::tools::bench::POSITIONS
        .lines()
        .map(|f| Board::from_fen(f).unwrap())
        .collect();
    let mut group = c.benchmark_group("eval");
    // With the pawn table warm, as in a search, where most structures are found there.
    let mut pawns = PawnTable::new();
    group.bench_function("evaluate_50_positions", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|board| evaluate(black_box(board), &mut pawns))
                .sum::<i32>()
        })
    });
    group.bench_function("make_unmake_all_moves_50_positions", |b| {
        let mut boards = boards.clone();
        let moves: Vec<_> = boards.iter().map(legal_moves).collect();
        b.iter(|| {
            for (board, moves) in boards.iter_mut().zip(&moves) {
                for &m in moves.iter() {
                    board.make_move(black_box(m));
                    board.unmake_move();
                }
            }
        })
    });
    group.finish();
}

criterion_group!(benches, eval_benches);
criterion_main!(benches);
