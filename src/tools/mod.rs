//! Tools around the engine proper: test-suite runners.

pub mod perft_suite;
