//! Ferrum, a UCI and XBoard chess engine. The binary (`main.rs`) is a thin front end to this
//! library, which the integration tests and benchmarks use directly.

pub mod attacks;
pub mod board;
pub mod book;
pub mod calibration;
pub mod comm;
pub mod eco;
pub mod engine;
pub mod eval;
pub mod evaluator;
pub mod formats;
pub mod movegen;
pub mod nnue;
pub mod rules;
pub mod search;
pub mod tablebase;
pub mod tools;
pub mod train;
pub mod types;
pub mod ui;
