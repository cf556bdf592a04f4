//! The modes that fit an evaluation to data: `train` (a network), `tune` (the hand-crafted
//! evaluation's weights), and `calibrate` (a network's WDL model and UCI_Elo budgets in
//! its file).

use super::{fail, finish};
use clap::Args;
use ferrum::nnue::Activation;
use ferrum::tools::tune;
use ferrum::train;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::LazyLock;

/// `ferrum tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Data files of `FEN | score | result` lines (from `ferrum datagen`)
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Where the weights go
    #[arg(short, long, default_value = "src/eval/params.rs")]
    output: PathBuf,
    /// Passes over the data
    #[arg(long, default_value_t = 300)]
    epochs: usize,
    /// Adam's step size, in centipawns
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// Share of the game result in the target (the rest: the search score)
    #[arg(long, default_value_t = 1.0)]
    lambda: f64,
    /// Worker threads
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Change only these groups of weights: names as in src/eval/weights.rs, or
    /// families (mobility, king-safety ...)
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Set these groups or families to zero and keep them there (an ablation)
    #[arg(long, value_delimiter = ',')]
    without: Vec<String>,
    /// The sigmoid's scale (default: fitted to the data)
    #[arg(long)]
    k: Option<f64>,
}

/// Texel tuning of the evaluation's weights.
pub fn tune(args: TuneArgs) -> ExitCode {
    let config = tune::Config {
        data: args.data,
        output: args.output,
        epochs: args.epochs,
        rate: args.rate,
        lambda: args.lambda.clamp(0.0, 1.0),
        threads: args.threads.clamp(1, 256),
        groups: args.only,
        without: args.without,
        k: args.k,
        command: std::env::args().collect::<Vec<_>>().join(" "),
    };
    finish(tune::run(&config, &mut std::io::stdout()))
}

/// The trainer's defaults, which the command line shows and takes.
static DEFAULTS: LazyLock<train::Config> = LazyLock::new(train::Config::default);

/// `ferrum train`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Bulletformat files of shuffled positions (`ferrum data shuffle`)
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// The network to write (after every epoch; a checkpoint goes beside it)
    #[arg(short, long, default_value_os_t = DEFAULTS.output.clone())]
    output: PathBuf,
    /// Neurons in each side's accumulator
    #[arg(long, default_value_t = DEFAULTS.hidden)]
    hidden: usize,
    /// screlu or crelu
    #[arg(long, default_value_t = DEFAULTS.activation)]
    activation: Activation,
    /// Output buckets, chosen by the number of pieces on the board (1 to 8)
    #[arg(long, default_value_t = DEFAULTS.buckets)]
    output_buckets: usize,
    /// Mirror each side's view left to right while its king is on files e to h (true or false)
    #[arg(long, default_value_t = DEFAULTS.mirrored, action = clap::ArgAction::Set,
        num_args = 0..=1, default_missing_value = "true")]
    mirror: bool,
    /// King buckets, each with its own feature weights: 1 (none), 2, 4 or 8 (docs/nnue.md)
    #[arg(long, default_value_t = DEFAULTS.king_buckets)]
    king_buckets: usize,
    /// Passes over the data (or over --epoch-positions of it)
    #[arg(long, default_value_t = DEFAULTS.epochs)]
    epochs: usize,
    /// Positions an epoch (default: all)
    #[arg(long)]
    epoch_positions: Option<usize>,
    /// Positions a mini-batch
    #[arg(long, default_value_t = DEFAULTS.batch)]
    batch: usize,
    /// AdamW's learning rate
    #[arg(long, default_value_t = DEFAULTS.rate)]
    rate: f32,
    /// The rate is multiplied by GAMMA every STEP epochs
    #[arg(long, default_value_t = DEFAULTS.gamma)]
    gamma: f32,
    #[arg(long, default_value_t = DEFAULTS.step)]
    step: usize,
    /// step (the rate multiplied by GAMMA every STEP epochs) or cosine (from RATE along half
    /// a cosine, batch by batch, to RATE * GAMMA^(EPOCHS / STEP))
    #[arg(long, default_value_t = DEFAULTS.schedule)]
    schedule: train::Schedule,
    /// AdamW's weight decay
    #[arg(long, default_value_t = DEFAULTS.weight_decay)]
    weight_decay: f32,
    /// Share of the game result in the target (the rest: the search score)
    #[arg(long, default_value_t = DEFAULTS.lambda)]
    lambda: f32,
    /// The result's share at the last batch, ramped in a straight line from LAMBDA (the
    /// validation loss stays measured at LAMBDA)
    #[arg(long)]
    lambda_end: Option<f32>,
    /// Centipawns per unit of output (the search score's sigmoid scale)
    #[arg(long, default_value_t = DEFAULTS.scale)]
    scale: f32,
    /// Worker threads
    #[arg(long, default_value_t = DEFAULTS.threads)]
    threads: usize,
    /// Seed of the first weights and of the batches' order
    #[arg(long, default_value_t = DEFAULTS.seed)]
    seed: u64,
    /// Positions held out at the end of the data to measure the loss on
    #[arg(long, default_value_t = DEFAULTS.validation)]
    validation: usize,
    /// Measure the loss on this bulletformat file instead (games kept out of the training
    /// data; may be repeated), all the data being trained on
    #[arg(long)]
    validation_file: Vec<PathBuf>,
    /// Go on from this checkpoint (OUTPUT.checkpoint)
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Start from this network's weights instead of random ones (fine-tuning)
    #[arg(long, conflicts_with = "resume")]
    init: Option<PathBuf>,
    /// Keep each epoch's network too, as OUTPUT-eN.nnue beside the output
    #[arg(long)]
    keep_epochs: bool,
}

/// Trains a network.
pub fn train(args: TrainArgs) -> ExitCode {
    let config = train::Config {
        data: args.data,
        output: args.output,
        hidden: args.hidden,
        activation: args.activation,
        buckets: args.output_buckets,
        mirrored: args.mirror,
        king_buckets: args.king_buckets,
        epochs: args.epochs,
        epoch_positions: args.epoch_positions,
        batch: args.batch.clamp(1, 1 << 24),
        rate: args.rate,
        gamma: args.gamma,
        step: args.step.max(1),
        schedule: args.schedule,
        weight_decay: args.weight_decay,
        lambda: args.lambda.clamp(0.0, 1.0),
        lambda_end: args.lambda_end.map(|l| l.clamp(0.0, 1.0)),
        scale: args.scale.clamp(50.0, 2000.0),
        threads: args.threads.clamp(1, 256),
        seed: args.seed,
        validation: args.validation,
        validation_files: args.validation_file,
        resume: args.resume,
        init: args.init,
        keep_epochs: args.keep_epochs,
    };
    finish(train::run(&config, &mut std::io::stdout()).map(|_| ()))
}

/// `ferrum calibrate`.
#[derive(Args, Debug)]
pub struct CalibrateArgs {
    /// The network file
    network: PathBuf,
    /// Write the network here with the calibration given (without, only show it)
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// The WDL model: a from t^3 down, then b from t^3 down, as scripts/fit-wdl.py prints
    /// them (8 numbers, comma-separated)
    #[arg(
        long,
        value_delimiter = ',',
        allow_negative_numbers = true,
        num_args = 1
    )]
    wdl: Vec<f64>,
    /// log2 of the nodes a move at UCI_Elo 1000, 1500, 2000, 2500 and 2800 (5 numbers,
    /// comma-separated)
    #[arg(long, value_delimiter = ',', num_args = 1)]
    elo_nodes: Vec<f64>,
    /// Write the network without a calibration (it then uses the default)
    #[arg(long, conflicts_with_all = ["wdl", "elo_nodes"])]
    remove: bool,
}

/// Shows a network's calibration, or writes the network with another.
pub fn calibrate(args: CalibrateArgs) -> ExitCode {
    use ferrum::calibration::Calibration;
    let mut network = match ferrum::nnue::load(&args.network) {
        Ok(network) => network,
        Err(e) => return fail(e),
    };
    let mut calibration = *network.calibration();
    match args.wdl.len() {
        0 => {}
        8 => {
            calibration.wdl.a.copy_from_slice(&args.wdl[..4]);
            calibration.wdl.b.copy_from_slice(&args.wdl[4..]);
        }
        n => return fail(format!("--wdl takes 8 numbers (a, then b), not {n}")),
    }
    match args.elo_nodes.len() {
        0 => {}
        5 => calibration.log2_nodes.copy_from_slice(&args.elo_nodes),
        n => return fail(format!("--elo-nodes takes 5 numbers, not {n}")),
    }
    // The checks a file's section gets when it is read.
    if let Err(e) = Calibration::from_bytes(&calibration.to_bytes()) {
        return fail(e);
    }
    let changed = args.remove || !args.wdl.is_empty() || !args.elo_nodes.is_empty();
    let Some(output) = args.output else {
        if changed {
            return fail("--wdl, --elo-nodes and --remove need -o, the file to write");
        }
        let name = format!("network {}", args.network.display());
        let evaluator = ferrum::evaluator::Evaluator::with_network(network.into(), &name);
        let c = evaluator.calibration();
        println!("{}", evaluator.describe());
        println!("wdl a {:?}\nwdl b {:?}", c.wdl.a, c.wdl.b);
        println!(
            "elo nodes (log2 at 1000, 1500, 2000, 2500, 2800) {:?}",
            c.log2_nodes
        );
        return ExitCode::SUCCESS;
    };
    network.own_calibration = (!args.remove).then_some(calibration);
    finish(
        std::fs::write(&output, network.to_bytes())
            .map_err(|e| format!("{}: {e}", output.display()))
            .map(|()| println!("{} written", output.display())),
    )
}
