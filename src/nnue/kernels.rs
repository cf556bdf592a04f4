//! The network's arithmetic, the loops that run at every evaluation: an accumulator
//! updated by the rows a move adds and removes, and the output layer's sum. Each has a
//! plain Rust version, the reference, and one in AVX2; which one runs is decided once,
//! when a network is read (`Kernels::detect`), not at every call. Both give the same
//! integers. The weights and accumulators they read are 64-byte aligned (`Aligned`, and
//! `Accumulator`'s `repr`), whole cache lines a row.

use super::{Activation, QA};
use std::ops::{Deref, DerefMut};

/// The kernels a network runs with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernels {
    /// Plain Rust, which the compiler vectorises for the build's target.
    Scalar,
    /// AVX2 intrinsics and AVX2 code generation (x86-64 CPUs since 2013).
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernels {
    /// The fastest the CPU running this has.
    pub fn detect() -> Kernels {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Kernels::Avx2;
        }
        Kernels::Scalar
    }

    /// `next = prev + added rows - removed rows`, for rows of `N` values.
    #[inline(always)]
    pub fn update<const N: usize>(
        self,
        next: &mut [i16; N],
        prev: &[i16; N],
        added: &[&[i16; N]],
        removed: &[&[i16; N]],
    ) {
        match self {
            Kernels::Scalar => update(next, prev, added, removed),
            // SAFETY: `Avx2` is only chosen when the CPU has AVX2.
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => unsafe { avx2::update(next, prev, added, removed) },
        }
    }

    /// The output layer's sum before its scaling: `ours` and `theirs` activated (clamped
    /// to 0..QA, squared for SCReLU) times their halves of `weights` (2 * N values).
    #[inline(always)]
    pub fn output_sum<const N: usize>(
        self,
        activation: Activation,
        ours: &[i16; N],
        theirs: &[i16; N],
        weights: &[i16],
    ) -> i64 {
        match self {
            Kernels::Scalar => output_sum(activation, ours, theirs, weights),
            // SAFETY: as in `update`.
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => unsafe { avx2::output_sum(activation, ours, theirs, weights) },
        }
    }
}

/// `acc += row`
#[inline(always)]
pub fn add(acc: &mut [i16], row: &[i16]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*w);
    }
}

/// `acc -= row`
#[inline(always)]
pub fn sub(acc: &mut [i16], row: &[i16]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*w);
    }
}

/// The moves' shapes each in one loop that the compiler vectorises: a quiet move (one row
/// on, one off), a capture (one on, two off), castling (two of each).
#[inline(always)]
fn update<const N: usize>(
    next: &mut [i16; N],
    prev: &[i16; N],
    added: &[&[i16; N]],
    removed: &[&[i16; N]],
) {
    match (added, removed) {
        ([a], [r]) => {
            for i in 0..N {
                next[i] = prev[i].wrapping_add(a[i]).wrapping_sub(r[i]);
            }
        }
        ([a], [r, r2]) => {
            for i in 0..N {
                next[i] = prev[i]
                    .wrapping_add(a[i])
                    .wrapping_sub(r[i])
                    .wrapping_sub(r2[i]);
            }
        }
        _ => {
            next.copy_from_slice(prev);
            for row in added {
                add(next, *row);
            }
            for row in removed {
                sub(next, *row);
            }
        }
    }
}

/// The output sum in plain Rust, in i64 throughout: the reference.
#[inline(always)]
pub fn output_sum(activation: Activation, ours: &[i16], theirs: &[i16], weights: &[i16]) -> i64 {
    let hidden = ours.len();
    let mut sum: i64 = 0;
    for (acc, weights) in [ours, theirs].into_iter().zip(weights.chunks_exact(hidden)) {
        for (&a, &w) in acc.iter().zip(weights) {
            let v = i64::from(a.clamp(0, QA as i16));
            sum += match activation {
                Activation::CReLU => v * i64::from(w),
                Activation::SCReLU => v * v * i64::from(w),
            };
        }
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Activation, QA};
    use std::arch::x86_64::*;

    /// The plain loops, compiled for AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update<const N: usize>(
        next: &mut [i16; N],
        prev: &[i16; N],
        added: &[&[i16; N]],
        removed: &[&[i16; N]],
    ) {
        super::update(next, prev, added, removed);
    }

    /// Sixteen values at a time: clamped to 0..QA; for SCReLU `v * w` (at most 255 * 127,
    /// an i16) times `v` by pairs into i32 lanes, each lane summing 2 * N / 8 such
    /// products (under 2^31 for N up to 512, docs/nnue.md); the lanes summed in i64.
    #[target_feature(enable = "avx2")]
    pub unsafe fn output_sum<const N: usize>(
        activation: Activation,
        ours: &[i16; N],
        theirs: &[i16; N],
        weights: &[i16],
    ) -> i64 {
        const { assert!(N.is_multiple_of(16) && N <= 512) };
        assert!(weights.len() >= 2 * N);
        let zero = _mm256_setzero_si256();
        let ceiling = _mm256_set1_epi16(QA as i16);
        let mut lanes = _mm256_setzero_si256();
        for (side, acc) in [ours, theirs].into_iter().enumerate() {
            for i in (0..N).step_by(16) {
                // SAFETY: i + 16 <= N, and `weights` holds 2 * N values.
                let (v, w) = unsafe {
                    (
                        _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                        _mm256_loadu_si256(weights.as_ptr().add(side * N + i).cast()),
                    )
                };
                let v = _mm256_min_epi16(_mm256_max_epi16(v, zero), ceiling);
                let products = match activation {
                    Activation::CReLU => _mm256_madd_epi16(v, w),
                    Activation::SCReLU => _mm256_madd_epi16(_mm256_mullo_epi16(v, w), v),
                };
                lanes = _mm256_add_epi32(lanes, products);
            }
        }
        let mut out = [0i32; 8];
        // SAFETY: eight i32 lanes into eight i32s.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), lanes) };
        out.iter().map(|&l| i64::from(l)).sum()
    }
}

/// 64 bytes of values: the unit of `Aligned`'s storage.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
struct Line([i16; 32]);

/// A run of i16 that starts on a 64-byte boundary, read and written as a slice.
#[derive(Clone, Default)]
pub struct Aligned {
    lines: Vec<Line>,
    len: usize,
}

impl Deref for Aligned {
    type Target = [i16];

    fn deref(&self) -> &[i16] {
        // SAFETY: `lines` holds at least `len` contiguous i16 (`Line` is `repr(C)` of
        // i16s, with no padding at its size).
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr().cast(), self.len) }
    }
}

impl DerefMut for Aligned {
    fn deref_mut(&mut self) -> &mut [i16] {
        // SAFETY: as in `deref`.
        unsafe { std::slice::from_raw_parts_mut(self.lines.as_mut_ptr().cast(), self.len) }
    }
}

impl FromIterator<i16> for Aligned {
    fn from_iter<I: IntoIterator<Item = i16>>(values: I) -> Aligned {
        let values: Vec<i16> = values.into_iter().collect();
        let mut lines = vec![Line([0; 32]); values.len().div_ceil(32)];
        for (line, chunk) in lines.iter_mut().zip(values.chunks(32)) {
            line.0[..chunk.len()].copy_from_slice(chunk);
        }
        Aligned {
            lines,
            len: values.len(),
        }
    }
}

impl From<Vec<i16>> for Aligned {
    fn from(values: Vec<i16>) -> Aligned {
        values.into_iter().collect()
    }
}

impl PartialEq for Aligned {
    fn eq(&self, other: &Aligned) -> bool {
        **self == **other
    }
}

impl Eq for Aligned {}

impl std::fmt::Debug for Aligned {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Aligned({} values)", self.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_storage_starts_on_a_cache_line_and_reads_back() {
        let values: Vec<i16> = (0..1000).map(|i| (i * 37 % 511 - 255) as i16).collect();
        let aligned = Aligned::from(values.clone());
        assert_eq!(&*aligned, &values[..]);
        assert_eq!(aligned.as_ptr() as usize % 64, 0);
        assert!(Aligned::default().is_empty());
    }

    /// Every kernel the CPU has gives the reference's integers, for both activations and
    /// every shape of move, on values at the limits of their types.
    #[test]
    fn every_kernel_matches_the_reference() {
        const N: usize = 64;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut values = |range: i32| -> [i16; N] {
            std::array::from_fn(|_| ((next() % (2 * range as u64 + 1)) as i32 - range) as i16)
        };
        let (prev, rows): ([i16; N], Vec<[i16; N]>) =
            (values(400), (0..4).map(|_| values(127)).collect());
        let weights: Vec<i16> = (0..2).flat_map(|_| values(127)).collect();
        let mut all = vec![Kernels::Scalar];
        if Kernels::detect() != Kernels::Scalar {
            all.push(Kernels::detect());
        }
        for kernels in all {
            for (a, r) in [(1, 1), (1, 2), (2, 2), (0, 0)] {
                let (added, removed): (Vec<&[i16; N]>, Vec<&[i16; N]>) =
                    (rows[..a].iter().collect(), rows[2..2 + r].iter().collect());
                let mut expected = prev;
                added.iter().for_each(|row| add(&mut expected, *row));
                removed.iter().for_each(|row| sub(&mut expected, *row));
                let mut got = [0; N];
                kernels.update(&mut got, &prev, &added, &removed);
                assert_eq!(got, expected, "{kernels:?} {a} {r}");
            }
            for activation in [Activation::CReLU, Activation::SCReLU] {
                let (ours, theirs) = (values(300), values(300));
                assert_eq!(
                    kernels.output_sum(activation, &ours, &theirs, &weights),
                    output_sum(activation, &ours, &theirs, &weights),
                    "{kernels:?} {activation}"
                );
            }
        }
    }
}
