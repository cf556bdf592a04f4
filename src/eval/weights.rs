//! The evaluation's weights: each named group's place in the one flat table of (midgame,
//! endgame) pairs, `params::PARAMS`, that the tuner fits. Tables indexed by a count or a
//! rank are groups of several weights; the comment on each says what indexes it.
//!
//! Each group is a `Span`, and the terms reach a weight through it: `ISOLATED.at(open)`,
//! `BISHOP_PAIR.single()`. Debug builds check that the index stays inside the group, so a
//! count one too large fails there instead of reading the next group's first weight.

/// The part of the evaluation a group belongs to, for the `eval` breakdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    Material,
    Placement,
    Pawns,
    Passers,
    Mobility,
    Pieces,
    King,
    Threats,
    Tempo,
}

impl Family {
    pub const ALL: [Family; 9] = [
        Family::Material,
        Family::Placement,
        Family::Pawns,
        Family::Passers,
        Family::Mobility,
        Family::Pieces,
        Family::King,
        Family::Threats,
        Family::Tempo,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Family::Material => "material",
            Family::Placement => "piece-square",
            Family::Pawns => "pawn structure",
            Family::Passers => "passed pawns",
            Family::Mobility => "mobility",
            Family::Pieces => "pieces",
            Family::King => "king safety",
            Family::Threats => "threats",
            Family::Tempo => "tempo",
        }
    }
}

/// A group's place in `PARAMS`, the way the terms reach its weights. Its length is kept
/// in debug builds only, which check every index against it; release builds carry the
/// bare first index, so that `at` costs what adding to it did before (a Span with its
/// length in the tables of groups the terms loop over cost 0.4% more instructions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    start: usize,
    #[cfg(debug_assertions)]
    len: usize,
}

impl Span {
    /// The index in `PARAMS` of the group's weight `i`; debug builds check that `i` is one
    /// of the group's.
    #[inline(always)]
    #[track_caller]
    pub const fn at(self, i: usize) -> usize {
        #[cfg(debug_assertions)]
        assert!(i < self.len, "weight index outside its group");
        self.start + i
    }

    /// The index of the one weight of a group of one.
    #[inline(always)]
    #[track_caller]
    pub const fn single(self) -> usize {
        #[cfg(debug_assertions)]
        assert!(self.len == 1, "`single` of a group of several weights");
        self.start
    }
}

/// One named group of weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    pub name: &'static str,
    pub start: usize,
    pub len: usize,
    pub family: Family,
    /// Rows of this many values when the group is written out (8 for tables by square or
    /// rank).
    pub row: usize,
}

/// Declares the groups in order: a `Span` constant for each, `COUNT`, and `GROUPS`
/// describing them all.
macro_rules! layout {
    ($($(#[doc = $doc:literal])* $name:ident: $len:expr, $family:ident, $row:expr;)*) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
        #[derive(Clone, Copy)]
        enum Id { $($name,)* }
        const LENS: &[usize] = &[$($len,)*];
        const fn start(id: Id) -> usize {
            let mut sum = 0;
            let mut i = 0;
            while i < id as usize {
                sum += LENS[i];
                i += 1;
            }
            sum
        }
        $($(#[doc = $doc])* pub const $name: Span = Span {
            start: start(Id::$name),
            #[cfg(debug_assertions)]
            len: $len,
        };)*
        /// How many weights there are.
        pub const COUNT: usize = {
            let mut sum = 0;
            let mut i = 0;
            while i < LENS.len() {
                sum += LENS[i];
                i += 1;
            }
            sum
        };
        pub const GROUPS: &[Group] = &[$(Group {
            name: stringify!($name),
            start: $name.start,
            len: $len,
            family: Family::$family,
            row: $row,
        },)*];
    };
}

layout! {
    /// Material by kind, pawn to king (the king's stays zero).
    MATERIAL: 6, Material, 6;
    /// Placement by kind and square, from White's side (Black's squares are flipped).
    PSQT: 6 * 64, Placement, 8;
    /// An isolated pawn: [on a closed file, on a half-open file].
    ISOLATED: 2, Pawns, 2;
    /// A pawn with another of its side ahead of it on its file.
    DOUBLED: 1, Pawns, 1;
    /// A backward pawn: [on a closed file, on a half-open file].
    BACKWARD: 2, Pawns, 2;
    /// A pawn beside or defended by another of its side, by rank.
    CONNECTED: 8, Pawns, 8;
    /// A pawn that can become passed by trading off its opponents, by rank.
    CANDIDATE: 8, Pawns, 8;
    /// A passed pawn by rank.
    PASSED: 8, Passers, 8;
    /// A passed pawn whose path to promotion is empty, by rank.
    PASSED_FREE: 8, Passers, 8;
    /// A passed pawn whose next square no enemy piece or pawn attacks, by rank.
    PASSED_SAFE: 8, Passers, 8;
    /// A passed pawn defended by a pawn.
    PASSED_PROTECTED: 1, Passers, 1;
    /// Own king's distance to the square in front of a passed pawn (0 to 7), counted once
    /// per rank beyond the third: the further the pawn, the more it matters.
    PASSED_KING_OWN: 8, Passers, 8;
    /// The enemy king's distance to that square, likewise.
    PASSED_KING_ENEMY: 8, Passers, 8;
    /// A rook of the pawn's side behind the passed pawn on its file.
    PASSED_ROOK_BEHIND: 1, Passers, 1;
    /// A passed pawn the enemy king cannot catch, the enemy having only pawns.
    PASSED_UNSTOPPABLE: 1, Passers, 1;
    /// Safe squares a knight attacks (0 to 8).
    KNIGHT_MOBILITY: 9, Mobility, 9;
    /// Safe squares a bishop attacks (0 to 13).
    BISHOP_MOBILITY: 14, Mobility, 7;
    /// Safe squares a rook attacks (0 to 14).
    ROOK_MOBILITY: 15, Mobility, 5;
    /// Safe squares a queen attacks (0 to 27).
    QUEEN_MOBILITY: 28, Mobility, 7;
    /// Two bishops.
    BISHOP_PAIR: 1, Pieces, 1;
    /// A rook on a file [without pawns of its side, without any pawns].
    ROOK_FILE: 2, Pieces, 2;
    /// A queen on such a file, likewise.
    QUEEN_FILE: 2, Pieces, 2;
    /// A rook on the seventh rank with the enemy king on the eighth or pawns on the seventh.
    ROOK_SEVENTH: 1, Pieces, 1;
    /// A knight on an outpost (ranks 4 to 6, out of reach of enemy pawns): [undefended,
    /// defended by a pawn].
    KNIGHT_OUTPOST: 2, Pieces, 2;
    /// A bishop on an outpost, likewise.
    BISHOP_OUTPOST: 2, Pieces, 2;
    /// Per pawn of the bishop's side on squares of its colour.
    BAD_BISHOP: 1, Pieces, 1;
    /// A knight or bishop with a pawn right in front of it.
    MINOR_BEHIND_PAWN: 1, Pieces, 1;
    /// Pawn shelter on the king's file and the two beside it: [file's distance from the
    /// edge 0-3][rank of the nearest own pawn in front of the king, 0 for none].
    KING_SHELTER: 32, King, 8;
    /// Enemy pawns storming those files: [distance from the edge][rank of the nearest
    /// enemy pawn, from our side, 0 for none].
    KING_STORM: 32, King, 8;
    /// The king's danger by attack units (attackers, attacks on its zone, safe checks,
    /// weak squares), capped at 31.
    KING_DANGER: 32, King, 8;
    /// A piece attacked by an enemy pawn, by its kind.
    THREAT_BY_PAWN: 6, Threats, 6;
    /// A piece attacked by an enemy knight or bishop, by its kind.
    THREAT_BY_MINOR: 6, Threats, 6;
    /// A piece attacked by an enemy rook, by its kind.
    THREAT_BY_ROOK: 6, Threats, 6;
    /// A piece (not a pawn) attacked and not defended.
    HANGING: 1, Threats, 1;
    /// A safe pawn push that would attack a piece.
    PAWN_PUSH_THREAT: 1, Threats, 1;
    /// Having the move.
    TEMPO: 1, Tempo, 1;
}

/// The group that weight `index` belongs to.
pub fn group_of(index: usize) -> &'static Group {
    let i = GROUPS.partition_point(|g| g.start + g.len <= index);
    &GROUPS[i.min(GROUPS.len() - 1)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_tile_the_table() {
        let mut next = 0;
        for g in GROUPS {
            assert_eq!(g.start, next, "{}", g.name);
            assert!(g.len > 0 && g.len % g.row == 0, "{}", g.name);
            next += g.len;
        }
        assert_eq!(next, COUNT);
        assert_eq!(group_of(PSQT.at(70)).name, "PSQT");
        assert_eq!(group_of(COUNT - 1).name, "TEMPO");
        assert_eq!(TEMPO.single(), COUNT - 1);
        assert_eq!(group_of(ISOLATED.at(1)).name, "ISOLATED");
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "weight index outside its group")]
    fn an_index_outside_its_group_is_caught() {
        // ISOLATED has two weights: the third would be DOUBLED's.
        let _ = ISOLATED.at(2);
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "`single` of a group of several weights")]
    fn single_of_a_table_is_caught() {
        let _ = CONNECTED.single();
    }
}
