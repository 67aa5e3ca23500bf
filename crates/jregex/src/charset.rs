//! Sets of characters as sorted, disjoint, non-adjacent ranges of code points: the labels of the
//! automata and the value of every character class. The universe is every code point Java's
//! `Pattern` matches one at a time (0..=0x10FFFF); surrogate code points are in it because Java
//! classes may name them, but a Rust `&str` never holds one, so they never match and are never
//! chosen as an example.

/// The largest code point.
pub const MAX_CODE_POINT: u32 = 0x10FFFF;

/// A set of code points.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct CharSet {
    /// Inclusive ranges, sorted, disjoint and not adjacent (the canonical form, so derived
    /// equality is set equality).
    ranges: Vec<(u32, u32)>,
}

impl CharSet {
    pub fn empty() -> CharSet {
        CharSet { ranges: Vec::new() }
    }

    pub fn all() -> CharSet {
        CharSet { ranges: vec![(0, MAX_CODE_POINT)] }
    }

    pub fn single(c: u32) -> CharSet {
        CharSet { ranges: vec![(c, c)] }
    }

    pub fn range(lo: u32, hi: u32) -> CharSet {
        CharSet::from_ranges(vec![(lo, hi)])
    }

    /// The set of the given (possibly overlapping, unordered) inclusive ranges; empty ranges
    /// (`lo > hi`) are dropped.
    pub fn from_ranges(mut ranges: Vec<(u32, u32)>) -> CharSet {
        ranges.retain(|&(lo, hi)| lo <= hi);
        ranges.sort_unstable();
        let mut res: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
        for (lo, hi) in ranges {
            match res.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => res.push((lo, hi)),
            }
        }
        CharSet { ranges: res }
    }

    /// The set of the listed characters.
    pub fn of_chars(chars: &str) -> CharSet {
        CharSet::from_ranges(chars.chars().map(|c| (c as u32, c as u32)).collect())
    }

    pub fn ranges(&self) -> &[(u32, u32)] {
        &self.ranges
    }

    pub fn contains(&self, c: u32) -> bool {
        // Ranges are sorted: find the last range starting at or before `c`.
        let i = self.ranges.partition_point(|&(lo, _)| lo <= c);
        i > 0 && self.ranges[i - 1].1 >= c
    }

    pub fn union(&self, other: &CharSet) -> CharSet {
        let mut all = self.ranges.clone();
        all.extend_from_slice(&other.ranges);
        CharSet::from_ranges(all)
    }

    pub fn negate(&self) -> CharSet {
        let mut res = Vec::with_capacity(self.ranges.len() + 1);
        let mut next = 0u32;
        for &(lo, hi) in &self.ranges {
            if lo > next {
                res.push((next, lo - 1));
            }
            next = hi.saturating_add(1);
        }
        if next <= MAX_CODE_POINT && self.ranges.last().is_none_or(|&(_, hi)| hi < MAX_CODE_POINT) {
            res.push((next, MAX_CODE_POINT));
        }
        CharSet { ranges: res }
    }

    pub fn intersect(&self, other: &CharSet) -> CharSet {
        // A ∩ B = ¬(¬A ∪ ¬B): short, and the sets here have few ranges.
        self.negate().union(&other.negate()).negate()
    }

    /// The set closed under ASCII case: every ASCII letter in it brings its other case. This is
    /// Java's `CASE_INSENSITIVE` without `UNICODE_CASE`, which folds US-ASCII only.
    pub fn ascii_case_folded(&self) -> CharSet {
        let lower = self.intersect(&CharSet::range('a' as u32, 'z' as u32));
        let upper = self.intersect(&CharSet::range('A' as u32, 'Z' as u32));
        let mut all = self.ranges.clone();
        all.extend(lower.ranges.iter().map(|&(lo, hi)| (lo - 32, hi - 32)));
        all.extend(upper.ranges.iter().map(|&(lo, hi)| (lo + 32, hi + 32)));
        CharSet::from_ranges(all)
    }

    /// The character that stands for this set in a generated string: a letter or digit when the
    /// set has one (so examples read naturally), else printable ASCII, else the smallest
    /// character that a Rust string can hold. `None` when the set holds only surrogates.
    pub fn representative(&self) -> Option<char> {
        const PREFERRED: [(u32, u32); 5] = [
            ('a' as u32, 'z' as u32),
            ('A' as u32, 'Z' as u32),
            ('0' as u32, '9' as u32),
            (' ' as u32 + 1, '~' as u32),
            (' ' as u32, ' ' as u32),
        ];
        for (lo, hi) in PREFERRED {
            let hit = self.intersect(&CharSet::range(lo, hi));
            if let Some(&(c, _)) = hit.ranges.first() {
                return char::from_u32(c);
            }
        }
        self.ranges.iter().find_map(|&(lo, hi)| (lo..=hi).find_map(char::from_u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_algebra_keeps_the_canonical_form() {
        let a = CharSet::from_ranges(vec![(5, 9), (0, 3), (4, 4)]);
        assert_eq!(a.ranges(), &[(0, 9)]);
        assert_eq!(a.negate().negate(), a);
        assert_eq!(CharSet::all().negate(), CharSet::empty());
        assert_eq!(a.intersect(&CharSet::range(8, 20)).ranges(), &[(8, 9)]);
        assert!(a.contains(9) && !a.contains(10));
        let folded = CharSet::range('a' as u32, 'c' as u32).ascii_case_folded();
        assert_eq!(folded.ranges(), &[('A' as u32, 'C' as u32), ('a' as u32, 'c' as u32)]);
        assert_eq!(CharSet::all().representative(), Some('a'));
        assert_eq!(CharSet::range(0xD800, 0xDFFF).representative(), None);
    }
}
