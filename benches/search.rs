//! Search to a fixed depth from a fresh table: the whole engine at work, deterministic, as
//! `ferrum bench` and a GUI's first search run it (the same evaluator and table size;
//! tests/defaults.rs checks that they agree).

use criterion::{Criterion, criterion_group, criterion_main};
use ferrum::board::Board;
use ferrum::search::{Limits, SearchOptions, Signals};
use ferrum::tools::bench;

const POSITIONS: [(&str, &str, i32); 3] = [
    (
        "startpos_d10",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        10,
    ),
    (
        "kiwipete_d8",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        8,
    ),
    (
        "endgame_d14",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        14,
    ),
];

fn search_benches(c: &mut Criterion) {
    let mut session = bench::session(SearchOptions::default());
    let signals = Signals::default();
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (name, fen, depth) in POSITIONS {
        let board = Board::from_fen(fen).unwrap();
        group.bench_function(name, |b| {
            b.iter(|| {
                session.clear();
                session
                    .run(&board, &Limits::depth(depth), &signals, &mut |_| {})
                    .nodes
            })
        });
    }
    group.finish();
}

criterion_group!(benches, search_benches);
criterion_main!(benches);
