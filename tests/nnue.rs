//! The network in the engine: over random games (Chess960 castling, en passant and
//! promotions among their moves) the accumulators updated move by move equal those
//! computed from the pieces, and the output of every path (the kernels the CPU has and
//! the plain Rust ones, incremental and from scratch) is the same integer, with one output bucket or eight, plain
//! or mirrored (each side's view flipped while its king is on files e to h), with one king
//! bucket or several (a side computed again when its king moves to another view).

use ferrum::board::Board;
use ferrum::evaluator::Evaluator;
use ferrum::movegen::legal_moves;
use ferrum::nnue::{
    Accumulator, AccumulatorStack, Activation, Changes, HIDDEN, Inputs, Kernels, Network,
};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// A network of random weights at the edges of what training allows (weights within
/// +-1.98 of their scale), so that any overflow would show.
fn random_network(activation: Activation, buckets: usize, inputs: Inputs, seed: u64) -> Network {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut draw = |bound: i32| (rng.next_u32() % (2 * bound as u32 + 1)) as i32 - bound;
    Network {
        hidden: HIDDEN,
        activation,
        buckets,
        inputs,
        feature_weights: (0..inputs.features() * HIDDEN)
            .map(|_| draw(505) as i16)
            .collect(),
        feature_bias: (0..HIDDEN).map(|_| draw(505) as i16).collect(),
        output_weights: (0..buckets * 2 * HIDDEN)
            .map(|_| draw(126) as i16)
            .collect(),
        output_bias: (0..buckets).map(|_| draw(32_000) as i16).collect(),
        scale: 400,
        own_calibration: None,
        kernels: Kernels::detect(),
    }
}

#[test]
fn incremental_scratch_simd_and_scalar_agree() {
    let fens: Vec<String> = std::fs::read_to_string("epd/perft960.epd")
        .unwrap()
        .lines()
        .step_by(40)
        .chain(
            std::fs::read_to_string("epd/perft.epd")
                .unwrap()
                .lines()
                .take(30),
        )
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let (mut plies, mut castles, mut en_passant, mut promotions) = (0, 0, 0, 0);
    let mut refreshes = 0;
    let shapes = [
        (Activation::SCReLU, 1, false, 1),
        (Activation::CReLU, 1, false, 1),
        (Activation::SCReLU, 8, false, 1),
        (Activation::SCReLU, 8, true, 1),
        (Activation::SCReLU, 8, true, 4),
        (Activation::CReLU, 1, false, 8),
    ];
    for (n, (activation, buckets, mirrored, kings)) in shapes.into_iter().enumerate() {
        let inputs = Inputs::new(mirrored, kings).unwrap();
        let network = random_network(activation, buckets, inputs, n as u64);
        // Saved network files round-trip too.
        assert_eq!(Network::from_bytes(&network.to_bytes()).unwrap(), network);
        let scalar = Network {
            kernels: Kernels::Scalar,
            ..network.clone()
        };
        for (game, fen) in fens.iter().enumerate() {
            let mut board = Board::from_fen(fen).unwrap();
            board.set_chess960(game < 24);
            let mut acc = Accumulator::from_board(&network, &board);
            let mut scalar_acc = Accumulator::from_board(&scalar, &board);
            for _ in 0..120 {
                let moves = legal_moves(&board);
                if moves.is_empty() {
                    break;
                }
                // Castling, en passant and promotions are played whenever they come up,
                // every other time.
                let special: Vec<_> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.is_castle() || m.is_en_passant() || m.promotion().is_some())
                    .collect();
                let m = if !special.is_empty() && rng.next_u64() % 2 == 0 {
                    special[rng.next_u64() as usize % special.len()]
                } else {
                    moves[rng.next_u64() as usize % moves.len()]
                };
                castles += usize::from(m.is_castle());
                en_passant += usize::from(m.is_en_passant());
                promotions += usize::from(m.promotion().is_some());
                let (us, king) = (
                    board.side_to_move(),
                    board.king_square(board.side_to_move()),
                );
                acc = acc.after_move(&network, &board, m);
                scalar_acc = scalar_acc.after_move(&scalar, &board, m);
                board.make_move(m);
                let moved = board.king_square(us);
                refreshes += usize::from(inputs.view_of(us, king) != inputs.view_of(us, moved));
                plies += 1;
                let fresh = Accumulator::from_board(&network, &board);
                assert_eq!(acc, fresh, "{} after {m}", board.to_fen());
                assert_eq!(scalar_acc, fresh, "{} after {m}", board.to_fen());
                let side = board.side_to_move();
                let pieces = board.occupied().count();
                let score = acc.evaluate(&network, side, pieces);
                assert_eq!(score, network.evaluate(&board), "{}", board.to_fen());
                assert_eq!(score, scalar_acc.evaluate(&scalar, side, pieces));
                let (ours, theirs) = (&acc.sides[side.index()], &acc.sides[(!side).index()]);
                let reference = network.output(ours, theirs, network.bucket_of(&board));
                assert_eq!(score, reference, "{}", board.to_fen());
            }
        }
    }
    assert!(plies > 10_000, "{plies}");
    assert!(
        castles > 0 && en_passant > 0 && promotions > 0 && refreshes > 300,
        "{castles} {en_passant} {promotions} {refreshes}"
    );
}

/// The search's stack of accumulators, which applies a line's changes only when a position
/// is evaluated, follows random lines up and down (moves made and taken back, evaluations
/// at random plies) and always gives the score from scratch, plain, mirrored, or mirrored
/// with king buckets.
#[test]
fn the_search_stack_follows_its_line() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut evaluations = 0;
    // One stack for all the networks, as a search thread keeps it when the network changes.
    let mut stack = AccumulatorStack::new(24);
    for (n, (mirrored, kings)) in [(true, 8), (false, 1), (true, 1), (true, 4)]
        .into_iter()
        .enumerate()
    {
        let inputs = Inputs::new(mirrored, kings).unwrap();
        let network = random_network(Activation::SCReLU, 8, inputs, 10 + n as u64);
        for fen in std::fs::read_to_string("epd/bench.epd").unwrap().lines() {
            let mut board = Board::from_fen(fen).unwrap();
            stack.reset(&network, &board);
            let mut ply = 0;
            for _ in 0..300 {
                let moves = legal_moves(&board);
                let back = ply == 23 || moves.is_empty() || (ply > 0 && rng.next_u64() % 3 == 0);
                if back {
                    if ply == 0 {
                        break;
                    }
                    board.unmake_move();
                    ply -= 1;
                } else {
                    let m = moves[rng.next_u64() as usize % moves.len()];
                    stack.record(ply + 1, Changes::of(&board, m));
                    board.make_move(m);
                    ply += 1;
                }
                if rng.next_u64() % 2 == 0 {
                    let score = stack.evaluate(&network, &board, ply);
                    assert_eq!(score, network.evaluate(&board), "{}", board.to_fen());
                    evaluations += 1;
                }
            }
        }
    }
    assert!(evaluations > 10_000, "{evaluations}");
}

/// The built-in network loads; searches with it play legal moves and give the same nodes
/// on every run (debug builds also check each evaluation of the search against one from
/// scratch: the accumulators kept along the line are the position's).
#[test]
fn searches_evaluate_with_the_network() {
    use ferrum::search::{Limits, SearchOptions, Session, Signals};
    let network = ferrum::nnue::embedded();
    assert_eq!(network.hidden, HIDDEN);
    // The built-in network is the default.
    let options = SearchOptions::default();
    assert_eq!(options.evaluator.network(), Some(&network));
    for fen in std::fs::read_to_string("epd/bench.epd")
        .unwrap()
        .lines()
        .step_by(5)
    {
        let board = Board::from_fen(fen).unwrap();
        let run = || {
            let mut session = Session::new(4, options.clone());
            session.run(&board, &Limits::depth(7), &Signals::default(), &mut |_| {})
        };
        let (a, b) = (run(), run());
        assert_eq!((a.nodes, a.best), (b.nodes, b.best), "{fen}");
        assert!(legal_moves(&board).contains(&a.best.unwrap()), "{fen}");
        let mut hce = Session::new(
            4,
            SearchOptions {
                evaluator: Evaluator::hand_crafted(),
                ..SearchOptions::default()
            },
        );
        let c = hce.run(&board, &Limits::depth(7), &Signals::default(), &mut |_| {});
        assert_ne!(
            (a.nodes, a.score),
            (c.nodes, c.score),
            "{fen}: the same search"
        );
    }
}
