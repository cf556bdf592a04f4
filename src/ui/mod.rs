//! The front ends for people, beside the protocols for programs (`comm`): the console
//! (commands typed at a prompt: positions, searches, perft, tools) and the terminal game
//! (`ferrum play`).

pub mod console;
pub mod game;
