//! `ferrum data`: what is done to training data between datagen and the trainer.
//!
//! - `stats`: positions, games, results, scores, pieces and phases of any data file;
//! - `convert`: self-play games (viriformat) or the tuner's text lines into bulletformat
//!   positions, keeping the quiet ones (not in check, the move played neither a capture
//!   nor a promotion, no mate score);
//! - `shuffle`: bulletformat files interleaved into one, in random order from a seed,
//!   with repeated positions dropped;
//! - `loss`: networks' loss on bulletformat positions, as the trainer measures it.
//!
//! The kind of a file goes by its name: `.vf` viriformat, `.bf` bulletformat, anything
//! else text. A directory stands for the files in it. Damaged input is reported with its
//! place, and what can be read of it is used.

use crate::board::Board;
use crate::formats::{bullet, viri};
use crate::nnue::{self, Network};
use crate::types::{Score, is_mate};
use bulletformat::ChessBoard;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use std::collections::HashSet;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The formats a data file can be in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Viri,
    Bullet,
    Text,
}

impl Kind {
    pub fn of(path: &Path) -> Kind {
        match path.extension().and_then(|e| e.to_str()) {
            Some("vf") => Kind::Viri,
            Some("bf") => Kind::Bullet,
            _ => Kind::Text,
        }
    }
}

/// The files `inputs` name, directories replaced by the files in them (sorted by name).
pub fn expand(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(input)
                .map_err(|e| format!("{}: {e}", input.display()))?
                .filter_map(|entry| entry.ok().map(|e| e.path()))
                .filter(|path| path.is_file())
                .collect();
            inside.sort();
            files.extend(inside);
        } else {
            files.push(input.clone());
        }
    }
    if files.is_empty() {
        return Err("no data files".into());
    }
    Ok(files)
}

/// A position as the trainer sees it, and whether it passes the filter for quiet ones.
pub struct Sample {
    pub position: ChessBoard,
    pub quiet: bool,
}

/// Reads every position of `path` into `f`; returns the games read (viriformat) and the
/// problems met, each with its place (reading goes on past them where the format allows).
pub fn visit(path: &Path, f: &mut dyn FnMut(Sample)) -> Result<(u64, Vec<String>), String> {
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let name = path.display();
    let mut problems = Vec::new();
    let mut games = 0;
    match Kind::of(path) {
        Kind::Viri => loop {
            match viri::next_game(&mut reader) {
                Ok(Some(game)) => {
                    games += 1;
                    let result = f32::from(game.wdl) / 2.0;
                    for (board, m, score) in game.positions() {
                        let quiet =
                            !board.in_check() && !m.is_noisy() && !is_mate(Score::from(score));
                        match bullet::record(&board, score, result) {
                            Ok(position) => f(Sample { position, quiet }),
                            Err(e) => problems.push(format!("{name}: game {games}: {e}")),
                        }
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    problems.push(format!("{name}: game {}: {e}", games + 1));
                    break;
                }
            }
        },
        Kind::Bullet => {
            let mut bytes = [0; bullet::RECORD];
            for n in 1.. {
                match reader.read_exact(&mut bytes) {
                    Ok(()) => match bullet::from_bytes(&bytes) {
                        Ok(position) => f(Sample {
                            position,
                            quiet: true,
                        }),
                        Err(e) => problems.push(format!("{name}: position {n}: {e}")),
                    },
                    Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                        if reader.fill_buf().is_ok_and(|b| !b.is_empty()) {
                            problems.push(format!("{name}: ends inside position {n}"));
                        }
                        break;
                    }
                    Err(e) => {
                        problems.push(format!("{name}: {e}"));
                        break;
                    }
                }
            }
        }
        Kind::Text => {
            for (i, line) in reader.lines().enumerate() {
                let line = match line {
                    Ok(line) => line,
                    Err(e) => {
                        problems.push(format!("{name}: line {}: {e}", i + 1));
                        break;
                    }
                };
                if line.trim().is_empty() {
                    continue;
                }
                match parse_text(&line) {
                    Ok(position) => f(Sample {
                        position,
                        quiet: true,
                    }),
                    Err(e) => problems.push(format!("{name}: line {}: {e}", i + 1)),
                }
            }
        }
    }
    Ok((games, problems))
}

/// A `FEN | score | result` line (White's view) as a bulletformat position.
fn parse_text(line: &str) -> Result<ChessBoard, String> {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    let [fen, score, result] = fields[..] else {
        return Err("not FEN | score | result".into());
    };
    let board = Board::from_fen(fen).map_err(|e| format!("invalid FEN: {e}"))?;
    let score: i16 = score
        .parse()
        .map_err(|_| format!("'{score}' is not a score"))?;
    let result = match result {
        "1.0" | "1" => 1.0,
        "0.5" => 0.5,
        "0.0" | "0" => 0.0,
        _ => return Err(format!("'{result}' is not a result (1.0, 0.5, 0.0)")),
    };
    bullet::record(&board, score, result)
}

/// Progress on standard error about once a second, with the rate and, when the end is
/// known, the time left.
struct Meter {
    started: Instant,
    shown: Instant,
    total: Option<u64>,
}

impl Meter {
    fn new(total: Option<u64>) -> Meter {
        Meter {
            started: Instant::now(),
            shown: Instant::now(),
            total,
        }
    }

    fn tick(&mut self, done: u64, what: &str) {
        if self.shown.elapsed().as_secs_f64() < 1.0 {
            return;
        }
        self.shown = Instant::now();
        let seconds = self.started.elapsed().as_secs_f64();
        let rate = done as f64 / seconds.max(1e-3);
        let left = super::time_left(
            self.total
                .map(|total| total.saturating_sub(done) as f64 / rate.max(1e-3)),
        );
        eprint!("\r{done} {what}, {rate:.0}/s, {seconds:.0} s{left}   ");
    }

    fn done(&self) {
        if self.started.elapsed().as_secs_f64() >= 1.0 {
            eprintln!();
        }
    }
}

/// The figures `stats` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stats {
    pub files: usize,
    pub games: u64,
    pub positions: u64,
    pub quiet: u64,
    /// Wins, draws and losses of the side to move, over the quiet positions.
    pub results: [u64; 3],
    /// Quiet positions by the side to move's score: below -1000, each 100 cp up to 1000,
    /// and above (22 bins).
    pub scores: [u64; 22],
    /// Quiet positions by the number of pieces, kings included (0 to 32).
    pub pieces: [u64; 33],
    /// Quiet positions by phase (0: pawns and kings only, 24: all the pieces).
    pub phases: [u64; 25],
}

impl Default for Stats {
    fn default() -> Stats {
        Stats {
            files: 0,
            games: 0,
            positions: 0,
            quiet: 0,
            results: [0; 3],
            scores: [0; 22],
            pieces: [0; 33],
            phases: [0; 25],
        }
    }
}

impl Stats {
    fn add(&mut self, sample: &Sample) {
        self.positions += 1;
        if !sample.quiet {
            return;
        }
        let p = &sample.position;
        self.quiet += 1;
        self.results[2 - usize::from(p.result.min(2))] += 1;
        let bin = (i32::from(p.score) + 1100).clamp(0, 2199) / 100;
        self.scores[bin as usize] += 1;
        self.pieces[p.occ.count_ones().min(32) as usize] += 1;
        let phase: usize = bullet::pieces(p)
            .map(|(kind, _, _)| [0, 1, 1, 2, 4, 0][kind.min(5)])
            .sum();
        self.phases[phase.min(24)] += 1;
    }
}

impl std::fmt::Display for Stats {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let share = |n: u64| 100.0 * n as f64 / self.quiet.max(1) as f64;
        writeln!(f, "files      {}", self.files)?;
        if self.games > 0 {
            writeln!(
                f,
                "games      {} ({:.1} positions a game)",
                self.games,
                self.positions as f64 / self.games as f64
            )?;
        }
        writeln!(f, "positions  {}", self.positions)?;
        writeln!(f, "quiet      {} ({:.1}%)", self.quiet, {
            100.0 * self.quiet as f64 / self.positions.max(1) as f64
        })?;
        let [w, d, l] = self.results;
        writeln!(
            f,
            "results    side to move wins {w} ({:.1}%), draws {d} ({:.1}%), loses {l} ({:.1}%)",
            share(w),
            share(d),
            share(l)
        )?;
        writeln!(f, "scores (side to move, centipawns)")?;
        for (i, &n) in self.scores.iter().enumerate() {
            let range = match i {
                0 => "      < -1000".to_string(),
                21 => "     >= +1000".to_string(),
                _ => format!(
                    "{:+6} ..{:+5}",
                    i as i32 * 100 - 1100,
                    i as i32 * 100 - 1001
                ),
            };
            writeln!(f, "  {range}  {n:10} {:5.1}%", share(n))?;
        }
        writeln!(f, "pieces (kings included)")?;
        for (i, &n) in self.pieces.iter().enumerate().filter(|(_, n)| **n > 0) {
            writeln!(f, "  {i:2}  {n:10} {:5.1}%", share(n))?;
        }
        writeln!(f, "phase (0 pawns and kings, 24 every piece)")?;
        for (i, &n) in self.phases.iter().enumerate().filter(|(_, n)| **n > 0) {
            writeln!(f, "  {i:2}  {n:10} {:5.1}%", share(n))?;
        }
        Ok(())
    }
}

/// The statistics of the files; problems are printed to standard error.
pub fn stats(inputs: &[PathBuf]) -> Result<Stats, String> {
    let files = expand(inputs)?;
    let mut stats = Stats {
        files: files.len(),
        ..Stats::default()
    };
    let mut meter = Meter::new(None);
    for path in &files {
        let (games, problems) = visit(path, &mut |sample| {
            stats.add(&sample);
            meter.tick(stats.positions, "positions");
        })?;
        stats.games += games;
        problems.iter().for_each(|p| eprintln!("warning: {p}"));
    }
    meter.done();
    Ok(stats)
}

/// Writes the quiet positions of the files (all positions with `keep_all`) to `output` in
/// bulletformat; returns the positions read and written.
pub fn convert(inputs: &[PathBuf], output: &Path, keep_all: bool) -> Result<(u64, u64), String> {
    let files = expand(inputs)?;
    if files.iter().any(|f| f == output) {
        return Err(format!("{} is both input and output", output.display()));
    }
    let error = |e: std::io::Error| format!("{}: {e}", output.display());
    let mut out = BufWriter::new(File::create(output).map_err(error)?);
    let (mut read, mut written) = (0, 0);
    let mut failed = None;
    let mut meter = Meter::new(None);
    for path in &files {
        let (_, problems) = visit(path, &mut |sample| {
            read += 1;
            if (sample.quiet || keep_all) && failed.is_none() {
                match out.write_all(&bullet::to_bytes(&sample.position)) {
                    Ok(()) => written += 1,
                    Err(e) => failed = Some(error(e)),
                }
            }
            meter.tick(read, "positions");
        })?;
        problems.iter().for_each(|p| eprintln!("warning: {p}"));
    }
    meter.done();
    if let Some(e) = failed {
        return Err(e);
    }
    out.flush().map_err(error)?;
    Ok((read, written))
}

/// Interleaves the bulletformat files into `output` in an order drawn from `seed`, each
/// position once unless `keep_duplicates`; returns the positions read and written.
pub fn shuffle(
    inputs: &[PathBuf],
    output: &Path,
    seed: u64,
    keep_duplicates: bool,
) -> Result<(u64, u64), String> {
    let files = expand(inputs)?;
    if let Some(path) = files.iter().find(|f| Kind::of(f) != Kind::Bullet) {
        return Err(format!(
            "{}: shuffle takes bulletformat (.bf) files; convert it first",
            path.display()
        ));
    }
    if files.iter().any(|f| f == output) {
        return Err(format!("{} is both input and output", output.display()));
    }
    let total: u64 = files
        .iter()
        .filter_map(|f| f.metadata().ok())
        .map(|m| m.len() / bullet::RECORD as u64)
        .sum();
    let mut records: Vec<[u8; bullet::RECORD]> = Vec::with_capacity(total as usize);
    let mut seen = HashSet::new();
    let mut read = 0;
    let mut meter = Meter::new(Some(total));
    for path in &files {
        let (_, problems) = visit(path, &mut |sample| {
            read += 1;
            let bytes = bullet::to_bytes(&sample.position);
            // The board as the side to move sees it, whatever the score and result.
            let mut key = [0; 24];
            key.copy_from_slice(&bytes[..24]);
            if keep_duplicates || seen.insert(key) {
                records.push(bytes);
            }
            meter.tick(read, "positions");
        })?;
        problems.iter().for_each(|p| eprintln!("warning: {p}"));
    }
    meter.done();
    drop(seen);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in (1..records.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        records.swap(i, j);
    }
    let error = |e: std::io::Error| format!("{}: {e}", output.display());
    let mut out = BufWriter::new(File::create(output).map_err(error)?);
    for record in &records {
        out.write_all(record).map_err(error)?;
    }
    out.flush().map_err(error)?;
    Ok((read, records.len() as u64))
}

/// The loss of each network (`nnue::embedded()` when `networks` is empty) on the positions
/// of bulletformat `inputs`: (name, positions, mean loss) a network.
pub fn loss(
    inputs: &[PathBuf],
    networks: &[PathBuf],
    lambda: f32,
    threads: usize,
) -> Result<Vec<(String, usize, f64)>, String> {
    let files = expand(inputs)?;
    if let Some(path) = files.iter().find(|f| Kind::of(f) != Kind::Bullet) {
        return Err(format!(
            "{}: loss takes bulletformat (.bf) files; convert it first",
            path.display()
        ));
    }
    let positions = crate::train::load(&files)?;
    if positions.is_empty() {
        return Err("no positions to measure on".into());
    }
    let named: Vec<(String, Network)> = if networks.is_empty() {
        vec![("built-in network".into(), (*nnue::embedded()).clone())]
    } else {
        networks
            .iter()
            .map(|path| {
                let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
                let network =
                    Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
                Ok((path.display().to_string(), network))
            })
            .collect::<Result<_, String>>()?
    };
    Ok(named
        .into_iter()
        .map(|(name, network)| {
            let loss = crate::train::loss(&network, &positions, lambda, threads);
            (name, positions.len(), loss)
        })
        .collect())
}
