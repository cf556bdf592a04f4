//! Training data for the network: self-play games in viriformat (`viri`), single
//! positions in bulletformat (`bullet`) for the trainer, the tuner's text lines, and the
//! work done on them (statistics, conversion, shuffling, duplicates).
//! The formats are documented in docs/nnue.md.

pub mod bullet;
pub mod viri;
