//! The trainer: a small network trained on self-play data lowers its loss, measured again
//! from the written file by `ferrum data loss`; a seed gives the
//! same network, also across a resumed checkpoint; the engine's integer evaluation of the
//! written network matches the trainer's floats; bad network files are refused.

use ferrum::board::Board;
use ferrum::formats::bullet;
use ferrum::nnue::{Activation, Network};
use ferrum::search::{SearchOptions, Session};
use ferrum::tools::{data, datagen};
use ferrum::train::{self, Config, model};
use std::path::PathBuf;
use std::sync::OnceLock;

fn tmp(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// Self-play positions (every position of 60 short games), with the boards they came from.
fn data() -> &'static (PathBuf, Vec<Board>) {
    static DATA: OnceLock<(PathBuf, Vec<Board>)> = OnceLock::new();
    DATA.get_or_init(|| {
        let config = datagen::Config {
            nodes: 300,
            seed: 77,
            ..datagen::Config::default()
        };
        let mut session = Session::new(2, SearchOptions::default());
        let mut bytes = Vec::new();
        let mut boards = Vec::new();
        for n in 0..60 {
            let game = datagen::play_game(&config, 77, n, &mut session);
            let result = f32::from(game.wdl) / 2.0;
            for (board, _, score) in game.positions() {
                let record = bullet::record(&board, score, result).unwrap();
                bytes.extend_from_slice(&bullet::to_bytes(&record));
                boards.push(board);
            }
        }
        // Shuffled, as training data are (the validation set is the last positions).
        let mut records: Vec<&[u8]> = bytes.chunks(bullet::RECORD).collect();
        let mut state = 12_345u64;
        for i in (1..records.len()).rev() {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            records.swap(i, (state >> 33) as usize % (i + 1));
        }
        let path = tmp("train-data.bf");
        std::fs::write(&path, records.concat()).unwrap();
        (path, boards)
    })
}

fn config(name: &str, activation: Activation, epochs: usize) -> Config {
    Config {
        data: vec![data().0.clone()],
        output: tmp(name),
        hidden: 32,
        activation,
        epochs,
        batch: 256,
        rate: 0.01,
        validation: 1_000,
        threads: 2,
        ..Config::default()
    }
}

/// With a validation file, every position of the data trains and the loss is measured on
/// the file's.
#[test]
fn the_loss_is_measured_on_a_validation_file() {
    let held = tmp("validation.bf");
    let bytes = std::fs::read(&data().0).unwrap();
    std::fs::write(&held, &bytes[..500 * bullet::RECORD]).unwrap();
    let config = Config {
        validation_files: vec![held],
        ..config("validation-file.nnue", Activation::SCReLU, 1)
    };
    let mut out = Vec::new();
    let epochs = train::run(&config, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    let all = bytes.len() / bullet::RECORD;
    let expected = format!("{all} training positions, 500 for validation");
    assert!(out.starts_with(&expected), "{out}");
    // `ferrum data loss` measures the written network as the trainer measured its floats:
    // the same figure but for the rounding of the weights.
    let held = config.validation_files.clone();
    let measured = data::loss(
        &held,
        std::slice::from_ref(&config.output),
        config.lambda,
        1,
    )
    .unwrap();
    let (trainer, written) = (epochs[0].validation_loss, measured[0].2);
    assert_eq!(measured[0].1, 500);
    assert!(
        (written - trainer).abs() < 0.02 * trainer,
        "trainer {trainer}, written network {written}"
    );
    let error = data::loss(&held, &[data().0.with_extension("nnue")], 0.3, 1).unwrap_err();
    assert!(error.contains("train-data.nnue"), "{error}");
    let error = data::loss(std::slice::from_ref(&config.output), &[], 0.3, 1).unwrap_err();
    assert!(error.contains("bulletformat"), "{error}");
    let missing = Config {
        validation_files: vec![tmp("no-such-file.bf")],
        ..config.clone()
    };
    let error = train::run(&missing, &mut std::io::sink()).unwrap_err();
    assert!(error.contains("no-such-file.bf"), "{error}");
}

/// Plain, and with king buckets (factorised: their shared rows learn from every position).
#[test]
fn a_small_network_learns() {
    let shapes = [
        (Activation::SCReLU, 1),
        (Activation::CReLU, 1),
        (Activation::SCReLU, 4),
    ];
    for (activation, king_buckets) in shapes {
        let config = Config {
            king_buckets,
            ..config("learns.nnue", activation, 6)
        };
        let epochs = train::run(&config, &mut std::io::sink()).unwrap();
        assert_eq!(epochs.len(), 6);
        let (first, last) = (epochs[0], epochs[5]);
        assert!(
            last.train_loss < 0.8 * first.train_loss,
            "{activation:?}: {first:?} -> {last:?}"
        );
        assert!(last.validation_loss < first.validation_loss, "{epochs:?}");
        let network = Network::from_bytes(&std::fs::read(&config.output).unwrap()).unwrap();
        assert_eq!((network.hidden, network.activation), (32, activation));
    }
}

/// The step schedule holds the rate for STEP epochs at a time; the cosine starts at the
/// rate, ends where the steps would go next and falls all the way; the result's share
/// ramps from `lambda` to `lambda_end`. A run with both learns.
#[test]
fn rates_fall_by_steps_or_a_cosine_and_the_share_ramps() {
    let step = Config {
        rate: 0.001,
        gamma: 0.3,
        step: 4,
        epochs: 8,
        ..Config::default()
    };
    assert_eq!(step.rate_at(1, 0.0), 0.001);
    assert_eq!(step.rate_at(4, 0.49), 0.001);
    assert!((step.rate_at(5, 0.5) - 0.0003).abs() < 1e-9);
    let cosine = Config {
        schedule: train::Schedule::Cosine,
        ..step.clone()
    };
    assert!((cosine.rate_at(1, 0.0) - 0.001).abs() < 1e-9);
    assert!((cosine.rate_at(8, 1.0) - 0.001 * 0.09).abs() < 1e-9);
    assert!((cosine.rate_at(4, 0.5) - 0.001 * (1.0 + 0.09) / 2.0).abs() < 1e-9);
    let rates: Vec<f32> = (0..=20)
        .map(|i| cosine.rate_at(1, f64::from(i) / 20.0))
        .collect();
    assert!(rates.windows(2).all(|w| w[1] < w[0]), "{rates:?}");
    assert_eq!(step.lambda_at(0.7), 0.3);
    let ramp = Config {
        lambda: 0.1,
        lambda_end: Some(0.5),
        ..step
    };
    assert!((ramp.lambda_at(0.0) - 0.1).abs() < 1e-6);
    assert!((ramp.lambda_at(0.5) - 0.3).abs() < 1e-6);
    assert!((ramp.lambda_at(1.0) - 0.5).abs() < 1e-6);

    let config = Config {
        schedule: train::Schedule::Cosine,
        lambda_end: Some(0.6),
        ..config("cosine.nnue", Activation::SCReLU, 6)
    };
    let epochs = train::run(&config, &mut std::io::sink()).unwrap();
    let (first, last) = (epochs[0], epochs[5]);
    assert!(last.rate < first.rate, "{epochs:?}");
    assert!(last.validation_loss < first.validation_loss, "{epochs:?}");
}

/// Plain, and with king buckets (whose shared rows the checkpoint keeps too).
#[test]
fn a_seed_gives_the_same_network_resumed_or_not() {
    for king_buckets in [1, 4] {
        resumes_as_it_goes_on(king_buckets);
    }
}

fn resumes_as_it_goes_on(king_buckets: usize) {
    let straight = Config {
        king_buckets,
        keep_epochs: true,
        ..config("straight.nnue", Activation::SCReLU, 3)
    };
    train::run(&straight, &mut std::io::sink()).unwrap();
    let first = Config {
        epochs: 1,
        output: tmp("resumed.nnue"),
        keep_epochs: false,
        ..straight.clone()
    };
    train::run(&first, &mut std::io::sink()).unwrap();
    // The epochs kept along the way are the networks a run of that many epochs writes.
    let kept = |epoch| std::fs::read(train::epoch_path(&straight.output, epoch)).unwrap();
    assert_eq!(kept(1), std::fs::read(&first.output).unwrap());
    assert_eq!(kept(3), std::fs::read(&straight.output).unwrap());
    assert_eq!(
        train::epoch_path(&first.output, 12).file_name().unwrap(),
        "resumed-e12.nnue"
    );
    assert!(!train::epoch_path(&first.output, 1).exists());
    let resumed = Config {
        epochs: 3,
        resume: Some(train::checkpoint_path(&first.output)),
        ..first.clone()
    };
    let epochs = train::run(&resumed, &mut std::io::sink()).unwrap();
    assert_eq!(epochs.first().map(|e| e.epoch), Some(2));
    assert_eq!(
        std::fs::read(&straight.output).unwrap(),
        std::fs::read(&resumed.output).unwrap()
    );
    let other_seed = Config {
        seed: 2,
        output: tmp("other-seed.nnue"),
        ..straight.clone()
    };
    train::run(&other_seed, &mut std::io::sink()).unwrap();
    assert_ne!(
        std::fs::read(&straight.output).unwrap(),
        std::fs::read(&other_seed.output).unwrap()
    );
}

/// `init` starts from a network's weights: at a rate of zero an epoch writes the same
/// network back, and with king buckets (the network's rows shared, the buckets' zero) one
/// that evaluates every position as the network does. A network of another shape is
/// refused.
#[test]
fn training_starts_from_a_network() {
    let base = config("init-base.nnue", Activation::SCReLU, 2);
    train::run(&base, &mut std::io::sink()).unwrap();
    let original = Network::from_bytes(&std::fs::read(&base.output).unwrap()).unwrap();
    for king_buckets in [1, 4] {
        let tuned = Config {
            init: Some(base.output.clone()),
            output: tmp("init-tuned.nnue"),
            king_buckets,
            rate: 0.0,
            epochs: 1,
            ..base.clone()
        };
        train::run(&tuned, &mut std::io::sink()).unwrap();
        let network = Network::from_bytes(&std::fs::read(&tuned.output).unwrap()).unwrap();
        assert_eq!(network.inputs.king_buckets, king_buckets);
        if king_buckets == 1 {
            assert_eq!(network, original);
        }
        for board in data().1.iter().step_by(7) {
            assert_eq!(network.evaluate(board), original.evaluate(board));
        }
        // Trained on at the usual rate, the network changes.
        let moved = Config {
            rate: 0.01,
            ..tuned.clone()
        };
        train::run(&moved, &mut std::io::sink()).unwrap();
        assert_ne!(
            std::fs::read(&moved.output).unwrap(),
            std::fs::read(&base.output).unwrap()
        );
    }
    let other = Config {
        init: Some(base.output.clone()),
        output: tmp("init-other.nnue"),
        hidden: 64,
        ..base.clone()
    };
    let error = train::run(&other, &mut std::io::sink()).unwrap_err();
    assert!(
        error.contains("not the shape trained (64 hidden"),
        "{error}"
    );
    let scaled = Config {
        scale: 400.0,
        ..other.clone()
    };
    let scaled = Config {
        hidden: 32,
        ..scaled
    };
    let error = train::run(&scaled, &mut std::io::sink()).unwrap_err();
    assert!(error.contains("scale 140, not 400"), "{error}");
}

/// The engine's integers against the trainer's floats on every position of the data
/// (thousands). The trainer's forward pass over the quantised weights (turned back into
/// floats) gives the engine's score within 2 cp, the difference of rounding the output
/// down; over the unrounded weights, within 3 cp plus 10% on average, the price of the
/// rounding itself (docs/nnue.md).
#[test]
fn the_engine_evaluates_as_the_trainer_does() {
    let shapes = [
        (Activation::SCReLU, 1, false, 1),
        (Activation::CReLU, 1, false, 1),
        (Activation::SCReLU, 8, false, 1),
        (Activation::SCReLU, 8, true, 1),
        (Activation::SCReLU, 8, true, 4),
        (Activation::SCReLU, 1, false, 8),
    ];
    for (activation, buckets, mirrored, king_buckets) in shapes {
        let config = Config {
            hidden: 64,
            buckets,
            mirrored,
            king_buckets,
            ..config("match.nnue", activation, 3)
        };
        train::run(&config, &mut std::io::sink()).unwrap();
        let params =
            train::checkpoint_params(&train::checkpoint_path(&config.output), &config).unwrap();
        let network = Network::from_bytes(&std::fs::read(&config.output).unwrap()).unwrap();
        assert_eq!(
            (network.inputs.mirrored, network.inputs.king_buckets),
            (mirrored, king_buckets)
        );
        let rounded = model::Params::from_network(&network);
        let boards = &data().1;
        assert!(boards.len() > 1_000);
        let (mut exact, mut unrounded) = (0.0, 0.0);
        for board in boards {
            let record = bullet::record(board, 0, 0.5).unwrap();
            let int = network.evaluate(board) as f32;
            let float = model::forward(&rounded, activation, &record) * config.scale;
            assert!(
                (float - int).abs() <= 2.0,
                "{activation:?} {}: float {float} int {int}",
                board.to_fen()
            );
            exact += (float - int).abs();
            let float = model::forward(&params, activation, &record) * config.scale;
            unrounded += (float - int).abs() / (3.0 + 0.1 * float.abs());
        }
        let n = boards.len() as f32;
        assert!(exact / n < 1.0, "{activation:?}: {}", exact / n);
        assert!(unrounded / n < 1.0, "{activation:?}: {}", unrounded / n);
    }
}

#[test]
fn bad_network_files_are_refused() {
    // One output bucket, no mirroring and one king bucket, so that the file can be written
    // as version 1 below.
    let config = Config {
        buckets: 1,
        mirrored: false,
        ..config("refuse.nnue", Activation::SCReLU, 1)
    };
    train::run(&config, &mut std::io::sink()).unwrap();
    let good = std::fs::read(&config.output).unwrap();
    assert!(Network::from_bytes(&good).is_ok());
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (Vec::new(), "too short"),
        (b"FRN".to_vec(), "too short"),
        (good[..100].to_vec(), "too short"),
        (good[..good.len() - 1].to_vec(), "bytes, expected"),
        ([&good[..], &[0, 0]].concat(), "bytes, expected"),
        ([b"NOPE", &good[4..]].concat(), "not a Ferrum network"),
        (
            {
                let mut b = good.clone();
                let last = b.len() - 5;
                b[last] ^= 1;
                b
            },
            "checksum",
        ),
        (
            {
                let mut b = good.clone();
                b[12] = 7; // hidden size 7
                b
            },
            "hidden size",
        ),
        (
            {
                let mut b = good.clone();
                b[32] = 9; // 9 output buckets
                b
            },
            "output buckets",
        ),
        (
            {
                let mut b = good.clone();
                b[36] = 2; // neither plain (0) nor mirrored (1)
                b
            },
            "mirroring 2",
        ),
        (
            {
                let mut b = good.clone();
                b[40] = 17; // 17 king buckets
                b
            },
            "17 king buckets",
        ),
        (
            {
                let mut b = good.clone();
                b[44 + 12] = 1; // a king on e2 in bucket 1 of 1
                b
            },
            "names bucket 1 of 1",
        ),
        (
            [&good[..4], &6u32.to_le_bytes(), &good[8..]].concat(),
            "version 6",
        ),
        // A calibration whose budgets fall with the level, and one cut short.
        {
            let mut network = Network::from_bytes(&good).unwrap();
            let mut calibration = ferrum::nnue::DEFAULT_CALIBRATION;
            calibration.log2_nodes.reverse();
            network.own_calibration = Some(calibration);
            (network.to_bytes(), "must rise with the level")
        },
        {
            let mut network = Network::from_bytes(&good).unwrap();
            network.own_calibration = Some(ferrum::nnue::DEFAULT_CALIBRATION);
            let bytes = network.to_bytes();
            (bytes[..bytes.len() - 1].to_vec(), "bytes, expected")
        },
    ];
    // Files of version 1 (before output buckets: no count in the header), 2 (before
    // mirroring) and 3 (before king buckets) are read as one bucket of each kind, not
    // mirrored; version 4 is version 5 without a calibration.
    let header = ferrum::nnue::HEADER_BYTES;
    let weights = &good[header - 8..];
    let v1 = [&good[..4], &1u32.to_le_bytes(), &good[8..32], weights].concat();
    let v2 = [&good[..4], &2u32.to_le_bytes(), &good[8..36], weights].concat();
    let v3 = [&good[..4], &3u32.to_le_bytes(), &good[8..40], weights].concat();
    let v4 = [&good[..4], &4u32.to_le_bytes(), &good[8..]].concat();
    for old in [v1, v2, v3, v4] {
        let network = Network::from_bytes(&old).unwrap();
        assert_eq!(network.inputs, ferrum::nnue::Inputs::PLAIN);
        assert_eq!(network, Network::from_bytes(&good).unwrap());
    }
    for (bytes, expected) in cases {
        let error = Network::from_bytes(&bytes).unwrap_err();
        assert!(error.contains(expected), "{error} (expected {expected})");
    }
}
