//! Tools around the engine proper: bench, EPD test suites and perft suites.

pub mod bench;
pub mod data;
pub mod datagen;
pub mod epd;
pub mod epd_test;
pub mod makebook;
pub mod perft_suite;
pub mod pgn;
pub mod tune;
