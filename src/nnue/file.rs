//! The network file: a header that states the shape and quantisation, the weights as
//! little-endian i16, and perhaps the network's calibration (docs/nnue.md, "The network
//! file and its integers"). Files of older versions are read as the shapes they knew.

use super::HIDDEN;
use super::{Activation, INPUTS, Inputs, Kernels, MAX_BUCKETS, MAX_KING_BUCKETS, Network, QA, QB};
use crate::calibration::{self, Calibration};

const MAGIC: &[u8; 4] = b"FRNN";
pub(super) const VERSION: u32 = 5;
/// Magic, version, inputs, hidden size, activation, QA, QB, scale, output buckets,
/// mirrored, king buckets, the king bucket of each square (64 bytes), checksum.
pub const HEADER_BYTES: usize = header_bytes(VERSION);

/// The header's length in a file of `version`: version 3 had no king buckets, version 2
/// no mirroring, version 1 no output bucket count either. Version 5 has version 4's
/// header and may end with a calibration section.
pub(super) const fn header_bytes(version: u32) -> usize {
    match version {
        1 => 40,
        2 => 44,
        3 => 48,
        _ => 48 + 4 + 64,
    }
}

/// FNV-1a over the weights' bytes, the header's check that they are the ones written.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl Network {
    /// The network file: header, then the weights as little-endian i16, then the
    /// calibration if it has one.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut weights = Vec::new();
        for value in self
            .feature_weights
            .iter()
            .chain(&self.feature_bias)
            .chain(self.output_weights.iter())
            .chain(&self.output_bias)
        {
            weights.extend_from_slice(&value.to_le_bytes());
        }
        if let Some(calibration) = &self.own_calibration {
            weights.extend_from_slice(&calibration.to_bytes());
        }
        let mut out = MAGIC.to_vec();
        for field in [
            VERSION,
            INPUTS as u32,
            self.hidden as u32,
            self.activation.code(),
            QA as u32,
            QB as u32,
            self.scale as u32,
            self.buckets as u32,
            u32::from(self.inputs.mirrored),
            self.inputs.king_buckets as u32,
        ] {
            out.extend_from_slice(&field.to_le_bytes());
        }
        out.extend_from_slice(&self.inputs.king_map);
        out.extend_from_slice(&checksum(&weights).to_le_bytes());
        out.extend_from_slice(&weights);
        out
    }

    /// A network from its file, or why the file is not one Ferrum can use.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() >= MAGIC.len() && !bytes.starts_with(MAGIC) {
            return Err("not a Ferrum network (no FRNN at the start)".into());
        }
        let field = |i: usize| {
            let at = 4 + 4 * i;
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        // A file too short to give its version is measured against the shortest header.
        let version = if bytes.len() >= 8 { field(0) } else { 1 };
        if !(1..=VERSION).contains(&version) {
            return Err(format!(
                "network version {version}, expected 1 to {VERSION}"
            ));
        }
        let header = header_bytes(version);
        if bytes.len() < header {
            return Err(format!(
                "{} bytes: too short for a network's header",
                bytes.len()
            ));
        }
        if field(1) != INPUTS as u32 {
            return Err(format!("{} inputs, expected {INPUTS}", field(1)));
        }
        let hidden = field(2) as usize;
        if !(8..=4096).contains(&hidden) || !hidden.is_multiple_of(8) {
            return Err(format!("hidden size {hidden} (8 to 4096, a multiple of 8)"));
        }
        let activation = Activation::from_code(field(3))
            .ok_or_else(|| format!("unknown activation {}", field(3)))?;
        let constants = (field(4), field(5));
        if constants != (QA as u32, QB as u32) {
            return Err(format!("quantisation {constants:?}, expected ({QA}, {QB})"));
        }
        let scale = field(6);
        if !(50..=2000).contains(&scale) {
            return Err(format!("output scale {scale} (50 to 2000)"));
        }
        let buckets = if version >= 2 { field(7) as usize } else { 1 };
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(format!("{buckets} output buckets (1 to {MAX_BUCKETS})"));
        }
        let mirrored = match if version >= 3 { field(8) } else { 0 } {
            0 => false,
            1 => true,
            code => return Err(format!("mirroring {code}, expected 0 or 1")),
        };
        let mut inputs = Inputs {
            mirrored,
            ..Inputs::PLAIN
        };
        if version >= 4 {
            inputs.king_buckets = field(9) as usize;
            if !(1..=MAX_KING_BUCKETS).contains(&inputs.king_buckets) {
                return Err(format!(
                    "{} king buckets (1 to {MAX_KING_BUCKETS})",
                    inputs.king_buckets
                ));
            }
            inputs.king_map.copy_from_slice(&bytes[44..108]);
            if let Some(&b) = inputs
                .king_map
                .iter()
                .find(|&&b| b as usize >= inputs.king_buckets)
            {
                return Err(format!(
                    "the king bucket map names bucket {b} of {}",
                    inputs.king_buckets
                ));
            }
        }
        let values = inputs.features() * hidden + hidden + buckets * (2 * hidden + 1);
        let expected = header + 2 * values;
        let calibrated = version >= 5 && bytes.len() == expected + calibration::SECTION_BYTES;
        if bytes.len() != expected && !calibrated {
            return Err(format!(
                "{} bytes, expected {expected} for hidden size {hidden} and {buckets} output buckets",
                bytes.len()
            ));
        }
        let weights = &bytes[header..];
        let sum = u64::from_le_bytes(bytes[header - 8..header].try_into().unwrap_or([0; 8]));
        if checksum(weights) != sum {
            return Err("the weights do not match the header's checksum".into());
        }
        let own_calibration = match calibrated {
            true => Some(Calibration::from_bytes(&bytes[expected..])?),
            false => None,
        };
        let mut all = weights
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]));
        let mut take = |n: usize| all.by_ref().take(n).collect::<Vec<i16>>();
        let feature_weights = take(inputs.features() * hidden).into();
        let feature_bias = take(hidden);
        let output_weights = take(buckets * 2 * hidden).into();
        let output_bias = take(buckets);
        Ok(Network {
            hidden,
            activation,
            buckets,
            inputs,
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
            scale: scale as i32,
            own_calibration,
            kernels: Kernels::detect(),
        })
    }

    /// A network from its file, of the hidden size the engine's accumulators have.
    pub fn for_engine(bytes: &[u8]) -> Result<Network, String> {
        let network = Network::from_bytes(bytes)?;
        if network.hidden != HIDDEN {
            return Err(format!(
                "hidden size {}: this build evaluates networks of {HIDDEN}",
                network.hidden
            ));
        }
        Ok(network)
    }
}
