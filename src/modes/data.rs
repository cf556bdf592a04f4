//! The modes that make and look after training data: `datagen` (self-play games) and
//! `data` (their statistics, conversion, shuffling, and networks' loss on them).

use super::{Globals, fail, finish};
use clap::{Args, Subcommand};
use ferrum::tools::{data, datagen};
use std::io::Write;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::process::ExitCode;

/// `ferrum datagen`.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// The directory of the shards (viri), or the file to append to (text)
    #[arg(short, long)]
    output: PathBuf,
    /// viri: whole games, a shard a thread, resumable (for the network); text: the quiet
    /// positions as `FEN | score | result` (for the tuner)
    #[arg(long, default_value = "viri", value_parser = ["viri", "text"])]
    format: String,
    /// Stop after this many games (viri: in each shard, counting those already there)
    #[arg(long)]
    games: Option<u64>,
    /// Stop once this many positions are written
    #[arg(long)]
    positions: Option<u64>,
    /// Nodes per move
    #[arg(long, default_value_t = 5_000)]
    nodes: u64,
    /// Depth per move, on top of the node limit
    #[arg(long)]
    depth: Option<i32>,
    /// Games played at once (viri: shards, with seeds SEED, SEED+1, ...)
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Seed of the random openings; game N of a run (a shard) depends on the seed and N only
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies before the engine plays: N, or MIN-MAX for a number drawn for each game
    #[arg(long, default_value = "8", value_name = "N|MIN-MAX", value_parser = datagen::parse_plies)]
    random_plies: RangeInclusive<u32>,
    /// EPD file of openings to start from (default: the start position)
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Percent of the games that start from a Double Fischer Random position (each side's
    /// first rank one of the 960 Chess960 arrays, drawn apart), before the random plies
    #[arg(long, value_name = "PERCENT", default_value_t = 0,
        value_parser = clap::value_parser!(u32).range(0..=100))]
    dfrc: u32,
    /// Draw the opening again when a search scores it beyond CP (after the random plies)
    #[arg(long, value_name = "CP", default_value_t = 400,
        value_parser = clap::value_parser!(i32).range(0..))]
    max_opening_score: i32,
    /// Adjudicate a win once the score stays at or above CP for PLIES plies
    #[arg(long, num_args = 2, value_names = ["CP", "PLIES"], default_values_t = [1000, 8])]
    resign: Vec<i32>,
    /// Adjudicate a draw once the score stays within CP for PLIES plies after ply AFTER
    #[arg(long, num_args = 3, value_names = ["CP", "PLIES", "AFTER"], default_values_t = [10, 16, 80])]
    draw: Vec<i32>,
    /// Transposition table per game, in MiB
    #[arg(long, default_value_t = 8)]
    hash: usize,
}

/// Self-play that appends labelled positions.
pub fn datagen(args: DatagenArgs, globals: &Globals) -> ExitCode {
    let evaluator = match super::evaluator(globals) {
        Ok(evaluator) => evaluator,
        Err(e) => return fail(e),
    };
    let openings = match &args.openings {
        None => Vec::new(),
        Some(path) => match std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| datagen::read_openings(&text))
        {
            Ok(openings) => openings,
            Err(e) => return fail(format!("{}: {e}", path.display())),
        },
    };
    let config = datagen::Config {
        format: match args.format.as_str() {
            "text" => datagen::Format::Text,
            _ => datagen::Format::Viri,
        },
        output: args.output,
        games: args.games,
        positions: args.positions,
        nodes: args.nodes.max(1),
        depth: args.depth.map(|d| d.clamp(1, 64)),
        threads: args.threads.clamp(1, 256),
        seed: args.seed,
        random_plies: args.random_plies,
        openings,
        dfrc_percent: args.dfrc,
        max_opening_score: args.max_opening_score,
        resign_score: args.resign[0].max(1),
        resign_plies: args.resign[1].max(1) as u32,
        draw_score: args.draw[0].max(0),
        draw_plies: args.draw[1].max(1) as u32,
        draw_after: args.draw[2].max(0) as u32,
        hash_mb: args.hash.clamp(1, 65_536),
        evaluator,
        ..datagen::Config::default()
    };
    finish(datagen::run(&config, &mut std::io::stderr()).map(|s| {
        println!(
            "{} positions from {} games written to {}",
            s.positions,
            s.games,
            config.output.display()
        );
    }))
}

/// `ferrum data`.
#[derive(Subcommand, Debug)]
pub enum DataCommand {
    /// Positions, games, results, scores (histogram), pieces and phases of data files
    Stats {
        /// Files or directories (.vf viriformat, .bf bulletformat, else text)
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
    },
    /// Games (viriformat) or text lines into bulletformat positions for the trainer,
    /// keeping the quiet ones
    Convert {
        /// Files or directories (.vf viriformat, else text)
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The bulletformat file to write (.bf)
        #[arg(short, long)]
        output: PathBuf,
        /// Every position, not only the quiet ones
        #[arg(long)]
        all: bool,
    },
    /// Bulletformat files interleaved into one in random order, each position once
    Shuffle {
        /// Bulletformat files or directories of them
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// The file to write (.bf)
        #[arg(short, long)]
        output: PathBuf,
        /// Seed of the order
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Keep repeated positions
        #[arg(long)]
        keep_duplicates: bool,
    },
    /// The loss of networks on bulletformat positions, as the trainer measures its
    /// validation loss: to compare networks on games none of them was trained on
    Loss {
        /// Bulletformat files or directories of them
        #[arg(required = true)]
        inputs: Vec<PathBuf>,
        /// A network file (may be repeated; the built-in network without one)
        #[arg(long)]
        network: Vec<PathBuf>,
        /// Share of the game result in the target (the rest: the search score)
        #[arg(long, default_value_t = 0.3)]
        lambda: f32,
        /// Worker threads
        #[arg(long, default_value_t = 2)]
        threads: usize,
    },
}

/// Runs a `data` subcommand.
pub fn data(command: DataCommand) -> ExitCode {
    match command {
        DataCommand::Stats { inputs } => finish(data::stats(&inputs).map(|s| {
            let _ = write!(std::io::stdout(), "{s}");
        })),
        DataCommand::Convert {
            inputs,
            output,
            all,
        } => finish(data::convert(&inputs, &output, all).map(|(read, written)| {
            println!(
                "{read} positions read, {written} written to {}",
                output.display()
            );
        })),
        DataCommand::Shuffle {
            inputs,
            output,
            seed,
            keep_duplicates,
        } => finish(data::shuffle(&inputs, &output, seed, keep_duplicates).map(
            |(read, written)| {
                println!(
                    "{read} positions read, {written} written to {} ({} repeats dropped)",
                    output.display(),
                    read - written
                );
            },
        )),
        DataCommand::Loss {
            inputs,
            network,
            lambda,
            threads,
        } => finish(data::loss(&inputs, &network, lambda, threads).map(|lines| {
            for (name, positions, loss) in lines {
                println!("{name}: loss {loss:.6} over {positions} positions");
            }
        })),
    }
}
