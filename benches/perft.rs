//! Perft from well-known positions: make, unmake and legal generation together.

use criterion::{Criterion, criterion_group, criterion_main};
use ferrum::board::Board;
use ferrum::movegen::perft;
use std::hint::black_box;

const POSITIONS: [(&str, &str, u32); 3] = [
    (
        "startpos_d4",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
    ),
    (
        "kiwipete_d3",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        3,
    ),
    ("endgame_d5", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5),
];

fn perft_benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    for (name, fen, depth) in POSITIONS {
        let mut board = Board::from_fen(fen).unwrap();
        group.bench_function(name, |b| b.iter(|| perft(&mut board, black_box(depth))));
    }
    group.finish();
}

criterion_group!(benches, perft_benches);
criterion_main!(benches);
