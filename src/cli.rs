//! The command line: which mode Ferrum runs in, with its arguments.

use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "ferrum",
    version,
    about = "Ferrum, a UCI and XBoard chess engine"
)]
pub struct Cli {
    /// Without a mode, Ferrum reads console commands from standard input ('help' lists them)
    #[command(subcommand)]
    pub mode: Option<Mode>,
    /// Directories of Syzygy tablebases, separated by ':' (';' on Windows): probed by the
    /// searches of every mode, as the SyzygyPath option
    #[arg(long, global = true)]
    pub syzygy: Option<String>,
    /// A Polyglot opening book: played from in UCI and XBoard games (the BookFile option),
    /// listed by the console's `book` command
    #[arg(long, global = true)]
    pub book: Option<String>,
}

#[derive(Subcommand, Debug)]
pub enum Mode {
    /// Speak UCI (also chosen when the first input line is `uci`)
    Uci,
    /// Speak XBoard/CECP (also chosen when the first input line is `xboard`)
    Xboard,
    /// Count the leaf nodes of the legal move tree to a depth
    Perft {
        /// Depth in plies
        depth: u32,
        /// Position to start from (default: the standard start position)
        #[arg(long)]
        fen: Option<String>,
    },
    /// Like perft, with the count below each root move (Stockfish's `go perft` format)
    Divide {
        /// Depth in plies
        depth: u32,
        /// Position to start from (default: the standard start position)
        #[arg(long)]
        fen: Option<String>,
    },
    /// Search a fixed set of positions; the last line, `<nodes> nodes <nps> nps`, is the signature
    Bench {
        /// Depth of each search
        #[arg(default_value_t = ferrum::tools::bench::DEFAULT_DEPTH)]
        depth: i32,
    },
    /// Print the static evaluation of a position with its parts
    Eval {
        /// Position (default: the standard start position)
        #[arg(long)]
        fen: Option<String>,
    },
    /// Run an EPD test suite (bm/am operations) and count the positions solved
    Test {
        /// EPD file, e.g. epd/wac-revised.epd
        file: PathBuf,
        /// Search each position to this depth
        #[arg(long, group = "limit")]
        depth: Option<i32>,
        /// Seconds per position (the default is 1)
        #[arg(long, group = "limit")]
        time: Option<f64>,
        /// Nodes per position
        #[arg(long, group = "limit")]
        nodes: Option<u64>,
        /// Count a position solved when a best move leads any of the first K lines
        #[arg(long, default_value_t = 1)]
        multipv: usize,
        /// Stop a position once the right move has been best for K iterations
        #[arg(long)]
        early_exit: Option<u32>,
        /// Transposition table size in MiB
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
    /// Play the engine against itself and write labelled positions (`FEN | score | result`)
    Datagen {
        /// File to append to
        #[arg(short, long, default_value = "data.txt")]
        output: PathBuf,
        /// Stop after this many games
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
        /// Games played at once
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Seed of the random openings; game N of a run depends on the seed and N only
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Random plies before the engine plays
        #[arg(long, default_value_t = 8)]
        random_plies: u32,
        /// EPD file of openings to start from (default: the start position)
        #[arg(long)]
        openings: Option<PathBuf>,
        /// Adjudicate a win once the score stays at or above CP for PLIES plies
        #[arg(long, num_args = 2, value_names = ["CP", "PLIES"], default_values_t = [1000, 8])]
        resign: Vec<i32>,
        /// Adjudicate a draw once the score stays within CP for PLIES plies after ply AFTER
        #[arg(long, num_args = 3, value_names = ["CP", "PLIES", "AFTER"], default_values_t = [10, 16, 80])]
        draw: Vec<i32>,
        /// Transposition table per game, in MiB
        #[arg(long, default_value_t = 8)]
        hash: usize,
    },
    /// Fit the evaluation's weights to labelled positions (Texel's method) and write them as
    /// Rust source
    Tune {
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
    },
    /// Print the Syzygy tablebase value (WDL, -2 to 2) and distance to zeroing (DTZ) of a
    /// position and of each legal move
    /// (the tables given by --syzygy)
    Probe {
        /// Position; without one, FENs are read from standard input, one per line
        #[arg(long)]
        fen: Option<String>,
    },
    /// Build a Polyglot opening book from the games of a PGN file
    Makebook {
        /// PGN file of games
        pgn: PathBuf,
        /// The book to write
        #[arg(short, long, default_value = "book.bin")]
        output: PathBuf,
        /// Moves from the first N plies of each game
        #[arg(long, default_value_t = 30)]
        max_ply: usize,
        /// Keep a move only when at least N games played it
        #[arg(long, default_value_t = 3)]
        min_games: u32,
        /// Only White's moves
        #[arg(long, conflicts_with = "only_black")]
        only_white: bool,
        /// Only Black's moves
        #[arg(long)]
        only_black: bool,
    },
    /// Play a game against Ferrum in the terminal: moves in SAN or coordinates, the board
    /// after each move, clocks, undo, hint, resign, flip, pgn ('help' in the game)
    Play {
        /// Your side: white, black or random
        #[arg(default_value = "white")]
        side: ferrum::comm::terminal::Side,
        /// Time control, minutes+seconds per move (e.g. 5+3); 'none' for no clocks
        #[arg(long, default_value = "5+3")]
        tc: String,
        /// Ferrum's strength on the UCI_Elo scale (1000 to 2800); full strength without it
        #[arg(long)]
        elo: Option<u32>,
        /// Position to start from (default: the standard start position)
        #[arg(long)]
        fen: Option<String>,
        /// Append each finished game to this PGN file
        #[arg(long)]
        pgn_out: Option<PathBuf>,
        /// Letters for the pieces rather than Unicode figurines
        #[arg(long)]
        ascii: bool,
        /// Transposition table size in MiB
        #[arg(long, default_value_t = 64)]
        hash: usize,
        /// Search threads
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Check the perft counts of an EPD suite (`FEN ;D1 20 ;D2 400 ...`)
    PerftSuite {
        /// EPD file, e.g. epd/perft.epd or epd/perft960.epd
        file: PathBuf,
        /// Skip counts above this many leaves
        #[arg(long)]
        max_nodes: Option<u64>,
        /// Skip depths above this one
        #[arg(long)]
        max_depth: Option<u32>,
        /// Worker threads (positions are shared out between them)
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
}
