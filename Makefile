# Ferrum build targets.
#   make                 native-CPU release binary ./ferrum (or EXE=<path>, as OpenBench uses)
#   make portable        release binary for any x86-64, as `cargo build --release` gives
#   make test            the test suite (what CI runs)
#   make bench           criterion benchmarks
#   make perft-suite     every depth of both perft suites, in release mode
#   make perft-compare   perft speed against Stockfish's `go perft` (needs Debian's stockfish)

EXE ?= ferrum
THREADS ?= 2
NATIVE_DIR := target/native

.PHONY: all portable test bench perft-suite perft-compare clean

# target-cpu=native only here: cargo builds and CI stay portable. A separate target
# directory keeps the two builds from invalidating each other.
all:
	RUSTFLAGS="-C target-cpu=native" cargo build --release --target-dir $(NATIVE_DIR)
	cp $(NATIVE_DIR)/release/ferrum $(EXE)

portable:
	cargo build --release
	cp target/release/ferrum $(EXE)

test:
	cargo test

bench:
	cargo bench

perft-suite:
	cargo build --release
	./target/release/ferrum perft-suite epd/perft.epd --threads $(THREADS)
	./target/release/ferrum perft-suite epd/perft960.epd --threads $(THREADS)

perft-compare: all
	scripts/perft-vs-stockfish.sh ./$(EXE)

clean:
	cargo clean
	rm -f ferrum
