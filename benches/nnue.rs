//! The network: an evaluation from scratch, the accumulator update a move makes, and the
//! output layer, each with the kernels the CPU gets (`Kernels::detect`) and with the plain
//! Rust ones, so that the ratio between them is measured in the same run.

use criterion::{Criterion, criterion_group, criterion_main};
use ferrum::board::Board;
use ferrum::movegen::legal_moves;
use ferrum::nnue::{Accumulator, Changes, Kernels, Network};
use ferrum::types::Color;
use std::hint::black_box;

fn nnue_benches(c: &mut Criterion) {
    let boards: Vec<Board> = ferrum::tools::bench::POSITIONS
        .lines()
        .map(|f| Board::from_fen(f).unwrap())
        .collect();
    // Every legal move of every position, with the accumulators it is made from (a king
    // move to another view is updated as if it kept its view: the same arithmetic).
    let detected = (*ferrum::nnue::embedded()).clone();
    let moves: Vec<(Accumulator, Vec<Changes>)> = boards
        .iter()
        .map(|board| {
            let changes = legal_moves(board)
                .iter()
                .map(|&m| Changes::of(board, m))
                .collect();
            (Accumulator::from_board(&detected, board), changes)
        })
        .collect();
    let mut group = c.benchmark_group("nnue");
    let scalar = Network {
        kernels: Kernels::Scalar,
        ..detected.clone()
    };
    for (name, network) in [("detected", &detected), ("scalar", &scalar)] {
        group.bench_function(format!("evaluate_from_scratch_50_positions_{name}"), |b| {
            b.iter(|| {
                boards
                    .iter()
                    .map(|board| network.evaluate(black_box(board)))
                    .sum::<i32>()
            })
        });
        group.bench_function(format!("update_all_moves_50_positions_{name}"), |b| {
            let mut next = moves[0].0;
            b.iter(|| {
                for (acc, changes) in &moves {
                    for change in changes {
                        for color in [Color::White, Color::Black] {
                            next.set_side(acc, network, black_box(change), color);
                        }
                    }
                }
                next.sides[0][0]
            })
        });
        group.bench_function(format!("output_50_positions_{name}"), |b| {
            b.iter(|| {
                moves
                    .iter()
                    .zip(&boards)
                    .map(|((acc, _), board)| {
                        let pieces = board.occupied().count();
                        acc.evaluate(network, board.side_to_move(), black_box(pieces))
                    })
                    .sum::<i32>()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, nnue_benches);
criterion_main!(benches);
