//! Writes each reader's seed inputs (tests/fuzzing/readers.rs) into `corpus/<reader>/`,
//! where `cargo fuzz run <reader>` starts from them:
//!
//!     cargo +nightly run --manifest-path fuzz/Cargo.toml --bin seeds

#[allow(dead_code)]
#[path = "../tests/fuzzing/readers.rs"]
mod readers;

fn main() -> std::io::Result<()> {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    for (name, _) in readers::READERS {
        let dir = corpus.join(name);
        std::fs::create_dir_all(&dir)?;
        for (n, seed) in readers::seeds(name).iter().enumerate() {
            std::fs::write(dir.join(format!("seed-{n}")), seed)?;
        }
        println!("{}: {} seeds", dir.display(), readers::seeds(name).len());
    }
    Ok(())
}
