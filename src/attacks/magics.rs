//! Fancy magic bitboards for bishop and rook attacks.
//!
//! Each square has a mask of the squares whose occupancy matters (its rays without the board
//! edge), a magic multiplier, a shift and an offset into one shared table of 107,648 attack
//! sets. The table is computed at compile time, and the build fails if a magic ever maps two
//! occupancies with different attacks to one entry. With BMI2 the index is `pext(occ, mask)`
//! instead of the multiply-and-shift, filling the same table in a different order.
//!
//! The magic numbers were found by `find_magics` from a fixed ChaCha seed; a test checks that
//! the search still reproduces them.

use super::rays::{DIRECTIONS, ray};
use crate::types::{Bitboard, Square};

/// Per-square lookup data.
#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// Total entries: 102,400 for rooks plus 5,248 for bishops.
const TABLE_SIZE: usize = 107_648;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Slider {
    Bishop,
    Rook,
}

impl Slider {
    const fn directions(self) -> [(i8, i8); 4] {
        match self {
            Slider::Rook => [DIRECTIONS[0], DIRECTIONS[1], DIRECTIONS[2], DIRECTIONS[3]],
            Slider::Bishop => [DIRECTIONS[4], DIRECTIONS[5], DIRECTIONS[6], DIRECTIONS[7]],
        }
    }
}

/// Attacks by walking the rays square by square: the reference the tables are built from.
const fn slow_attacks(slider: Slider, sq: usize, occupied: u64) -> u64 {
    let dirs = slider.directions();
    ray(sq, dirs[0], occupied)
        | ray(sq, dirs[1], occupied)
        | ray(sq, dirs[2], occupied)
        | ray(sq, dirs[3], occupied)
}

/// The squares whose occupancy can change the attacks: each ray without its last square.
const fn relevant_mask(slider: Slider, sq: usize) -> u64 {
    let dirs = slider.directions();
    let mut mask = 0;
    let mut d = 0;
    while d < 4 {
        let full = ray(sq, dirs[d], 0);
        if full != 0 {
            // The last square is the one farthest from `sq`: highest bit for rays going up
            // in index order, lowest for rays going down.
            let rising = dirs[d].1 > 0 || (dirs[d].1 == 0 && dirs[d].0 > 0);
            let last = if rising {
                63 - full.leading_zeros()
            } else {
                full.trailing_zeros()
            };
            mask |= full & !(1 << last);
        }
        d += 1;
    }
    mask
}

/// The table index of `occupied` relative to a square's offset.
#[inline(always)]
const fn magic_index(m: &Magic, occupied: u64) -> usize {
    ((occupied & m.mask).wrapping_mul(m.magic) >> m.shift) as usize
}

struct Tables {
    bishop: [Magic; 64],
    rook: [Magic; 64],
    attacks: [Bitboard; TABLE_SIZE],
}

/// Fills the magics and the shared table; panics (a compile error) on a destructive collision.
const fn build(use_pext: bool) -> Tables {
    let empty = Magic {
        mask: 0,
        magic: 0,
        shift: 0,
        offset: 0,
    };
    let mut tables = Tables {
        bishop: [empty; 64],
        rook: [empty; 64],
        attacks: [Bitboard::EMPTY; TABLE_SIZE],
    };
    let mut offset = 0;
    let mut pass = 0;
    while pass < 2 {
        let slider = if pass == 0 {
            Slider::Rook
        } else {
            Slider::Bishop
        };
        let mut sq = 0;
        while sq < 64 {
            let mask = relevant_mask(slider, sq);
            let bits = mask.count_ones();
            let magic = match slider {
                Slider::Rook => ROOK_MAGICS[sq],
                Slider::Bishop => BISHOP_MAGICS[sq],
            };
            let m = Magic {
                mask,
                magic,
                shift: 64 - bits,
                offset,
            };
            // Carry-rippler: visit every subset of the mask in increasing order, which is
            // also the order of their pext values, so the n-th subset's pext index is n.
            let mut subset = 0u64;
            let mut nth = 0;
            loop {
                let index = offset
                    + if use_pext {
                        nth
                    } else {
                        magic_index(&m, subset)
                    };
                nth += 1;
                let attacks = slow_attacks(slider, sq, subset);
                // Slider attacks are never empty, so an empty entry is a free one.
                let old = tables.attacks[index].0;
                assert!(old == 0 || old == attacks, "magic collision");
                tables.attacks[index] = Bitboard(attacks);
                subset = subset.wrapping_sub(mask) & mask;
                if subset == 0 {
                    break;
                }
            }
            match slider {
                Slider::Rook => tables.rook[sq] = m,
                Slider::Bishop => tables.bishop[sq] = m,
            }
            offset += 1 << bits;
            sq += 1;
        }
        pass += 1;
    }
    assert!(offset == TABLE_SIZE);
    tables
}

#[allow(long_running_const_eval)]
static TABLES: Tables = build(cfg!(target_feature = "bmi2"));

#[inline(always)]
fn lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    #[cfg(target_feature = "bmi2")]
    // SAFETY: the `bmi2` target feature is enabled for this build.
    let index = m.offset + unsafe { std::arch::x86_64::_pext_u64(occupied.0, m.mask) } as usize;
    #[cfg(not(target_feature = "bmi2"))]
    let index = m.offset + magic_index(m, occupied.0);
    debug_assert!(index < TABLE_SIZE);
    // SAFETY: `build` laid out every square's 2^bits entries from its offset, and both index
    // schemes produce values below 2^bits (pext of `bits` mask bits; a shift by 64 - bits).
    unsafe { *TABLES.attacks.get_unchecked(index) }
}

/// Squares a bishop on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    lookup(&TABLES.bishop[sq.index()], occupied)
}

/// Squares a rook on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    lookup(&TABLES.rook[sq.index()], occupied)
}

/// Squares a queen on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    bishop_attacks(sq, occupied) | rook_attacks(sq, occupied)
}

/// Searches magics for every square: sparse random candidates from ChaCha8 seeded with
/// `seed`, rooks first, each square in order, the first candidate without a destructive
/// collision kept. Returns (rook magics, bishop magics).
pub fn find_magics(seed: u64) -> ([u64; 64], [u64; 64]) {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::{Rng, SeedableRng};

    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut found = [[0u64; 64]; 2];
    // `used[i] == attempt` marks entry i as filled in the current attempt, so the scratch
    // table never needs clearing.
    let mut used = vec![0u32; 4096];
    let mut stored = vec![0u64; 4096];
    let mut attempt = 0u32;
    for (table, slider) in found.iter_mut().zip([Slider::Rook, Slider::Bishop]) {
        for (sq, slot) in table.iter_mut().enumerate() {
            let mask = relevant_mask(slider, sq);
            let shift = 64 - mask.count_ones();
            let mut cases = Vec::new();
            let mut subset = 0u64;
            loop {
                cases.push((subset, slow_attacks(slider, sq, subset)));
                subset = subset.wrapping_sub(mask) & mask;
                if subset == 0 {
                    break;
                }
            }
            *slot = loop {
                let magic = rng.next_u64() & rng.next_u64() & rng.next_u64();
                // Good magics spread the mask's bits into the top byte.
                if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                    continue;
                }
                attempt += 1;
                let fits = cases.iter().all(|&(occ, attacks)| {
                    let i = (occ.wrapping_mul(magic) >> shift) as usize;
                    if used[i] != attempt {
                        used[i] = attempt;
                        stored[i] = attacks;
                        true
                    } else {
                        stored[i] == attacks
                    }
                });
                if fits {
                    break magic;
                }
            };
        }
    }
    (found[0], found[1])
}

/// The seed `find_magics` was run with to produce the tables below.
pub const MAGIC_SEED: u64 = 0x4665_7272_756d; // "Ferrum"

#[rustfmt::skip]
const ROOK_MAGICS: [u64; 64] = [
    0x0080001081694000, 0x8440200010044003, 0x028010012000800c, 0x4100082100059000,
    0x0280040080080043, 0x4480120080040009, 0x0080010000800200, 0x8200009021020844,
    0x400380004000806a, 0x0130400840201002, 0x0080801000200080, 0x0002000840120020,
    0x0001000500100800, 0x0020808002000400, 0x0098808011001200, 0x02a0801041000080,
    0x0094848000244006, 0x0510004000200040, 0x0400888010002004, 0x011001000c201100,
    0x1400808004000800, 0x9010818006000c00, 0x4000840002080110, 0x0000060000450084,
    0x0100400480048030, 0x2040004440201000, 0x0110001080200084, 0x5008001010010200,
    0x8028020040400400, 0x0012000200080410, 0x8014020400108128, 0x0801010200004084,
    0x000e60c000800080, 0x4010004011402000, 0x0000100082802000, 0x2108008108801000,
    0x8008080080800400, 0x4018800400800200, 0x0010618804000210, 0x0909000081002852,
    0x1508802040188000, 0x0440201000424000, 0x2035004020010010, 0x0014080010008080,
    0x0108000400088080, 0x0202008004008002, 0x4002020001008080, 0x00000040a4020001,
    0x2002410080002300, 0x8000200040100840, 0x8100802000100080, 0x1000100100082100,
    0x0408004811004500, 0x0c00040080020080, 0x1000480110020400, 0x0014004084010200,
    0x0024250380001441, 0x0140008900201041, 0x0400084100142001, 0x004a050110000821,
    0x00560005b0082022, 0x3001000400020801, 0x0000023000880124, 0x0020004104008022,
];

#[rustfmt::skip]
const BISHOP_MAGICS: [u64; 64] = [
    0x4040440088810108, 0x6008228086020040, 0x9010010210212080, 0x0414052201000044,
    0x100510c080c80100, 0x0001042240040200, 0x0004012802100088, 0x0000238202a02048,
    0x0023600809084280, 0x2102202480960440, 0x881010a702022402, 0x8291040404828800,
    0x0000040422048222, 0xc020410120105085, 0x0400484c10188816, 0x0cc0824200d00804,
    0x20200a4044849080, 0x0204068818080861, 0x0012101004024068, 0x0132001040144072,
    0x4002008400943032, 0x2110200210042000, 0x020402c501011100, 0x40020261004a5200,
    0x801010008a025000, 0x004820064404c080, 0x4004010010010020, 0x00a0110008004004,
    0x9020802002020040, 0x8000520001008200, 0x0808410208511800, 0x0084004005004240,
    0x0004114004250c00, 0x0001080840205908, 0x200c21b000081080, 0x0020020080880080,
    0x4144050044cc0040, 0x0428100024a10082, 0x0044040080484800, 0x4000820040008400,
    0x0004042008200404, 0x8000841008000261, 0x1402002201020800, 0x0200202018000100,
    0x0003102010486200, 0x042208d007001480, 0x00a4910811080200, 0x0001610202028080,
    0x0808421004201054, 0x0401011802020010, 0x0c10003094100080, 0x10004c0205040041,
    0x0004080803041000, 0x0002c094080c8111, 0x011010500080a024, 0xc208011440820080,
    0xa02541004120a005, 0x200c091042022004, 0x0048040042080400, 0x6810240201228800,
    0x8020401141082208, 0x884010067c084200, 0x0028040810010a08, 0x1020883000908212,
];

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::{Rng, SeedableRng};

    #[test]
    fn embedded_magics_come_from_the_seeded_search() {
        assert_eq!(find_magics(MAGIC_SEED), (ROOK_MAGICS, BISHOP_MAGICS));
    }

    /// Every square against the slow ray walk, on random occupancies of varying density.
    #[test]
    fn lookups_match_ray_walk() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for i in 0..20_000 {
            let occupied = match i % 3 {
                0 => rng.next_u64(),
                1 => rng.next_u64() & rng.next_u64(),
                _ => rng.next_u64() & rng.next_u64() & rng.next_u64(),
            };
            for sq in Square::all() {
                let s = sq.index();
                let occ = Bitboard(occupied);
                assert_eq!(
                    rook_attacks(sq, occ).0,
                    slow_attacks(Slider::Rook, s, occupied)
                );
                assert_eq!(
                    bishop_attacks(sq, occ).0,
                    slow_attacks(Slider::Bishop, s, occupied)
                );
                assert_eq!(
                    queen_attacks(sq, occ),
                    rook_attacks(sq, occ) | bishop_attacks(sq, occ)
                );
            }
        }
    }

    #[test]
    fn masks_and_table_size() {
        let e4: Square = "e4".parse().unwrap();
        assert_eq!(relevant_mask(Slider::Rook, 0).count_ones(), 12);
        assert_eq!(relevant_mask(Slider::Rook, e4.index()).count_ones(), 10);
        assert_eq!(relevant_mask(Slider::Bishop, e4.index()).count_ones(), 9);
        assert_eq!(relevant_mask(Slider::Bishop, 0).count_ones(), 6);
    }

    /// Regenerates the magic tables: `cargo test print_magics -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn print_magics() {
        let (rook, bishop) = find_magics(MAGIC_SEED);
        for (name, magics) in [("ROOK", rook), ("BISHOP", bishop)] {
            println!("const {name}_MAGICS: [u64; 64] = [");
            for row in magics.chunks(4) {
                let row: Vec<String> = row.iter().map(|m| format!("0x{m:016x}")).collect();
                println!("    {},", row.join(", "));
            }
            println!("];");
        }
    }
}
