//! Move generation alone: all legal moves, and the noisy/quiet halves the search will use.

use criterion::{Criterion, criterion_group, criterion_main};
use ferrum::board::Board;
use ferrum::movegen::{MoveList, legal_moves, noisy_moves, quiet_moves};
use ferrum::types::Square;
use std::hint::black_box;

const FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
];

fn movegen_benches(c: &mut Criterion) {
    let boards: Vec<Board> = FENS.iter().map(|f| Board::from_fen(f).unwrap()).collect();
    let mut group = c.benchmark_group("movegen");
    group.bench_function("legal_4_positions", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|board| legal_moves(black_box(board)).len())
                .sum::<usize>()
        })
    });
    group.bench_function("noisy_then_quiet_4_positions", |b| {
        b.iter(|| {
            let mut n = 0;
            for board in &boards {
                let mut list = MoveList::new();
                noisy_moves(black_box(board), &mut list);
                quiet_moves(black_box(board), &mut list);
                n += list.len();
            }
            n
        })
    });
    group.bench_function("slider_attacks_64_squares", |b| {
        let occupied = black_box(boards[1].occupied());
        b.iter(|| {
            Square::all()
                .map(|sq| ferrum::attacks::queen_attacks(sq, occupied).0)
                .fold(0, |a, x| a ^ x)
        })
    });
    group.finish();
}

criterion_group!(benches, movegen_benches);
criterion_main!(benches);
