//! The formats of the training data: self-play games in viriformat (`viri`) and single
//! positions in bulletformat (`bullet`) for the trainer, read and written. The work done
//! on them (statistics, conversion, shuffling) is `tools::data`, `ferrum data`. The
//! formats are documented in docs/nnue.md.

pub mod bullet;
pub mod viri;
