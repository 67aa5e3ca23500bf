//! Value pools (EvoSuite's `ConstantPoolManager`): the static pool of constants found in the CUT's
//! constant pool (plus EvoSuite's seeds 0, 1, -1 and ""), and a dynamic pool of values observed
//! during execution (comparison operands, `String.equals` arguments) that the engine adds as it
//! learns them. This module only stores and draws values; it runs nothing.

use std::collections::{BTreeSet, VecDeque};

use rand::RngExt;

use crate::TestRng;
use crate::cluster::PoolConstants;
use crate::types::PrimType;

/// Constants of one kind each, sorted and without duplicates.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConstantValues {
    pub ints: BTreeSet<i32>,
    pub longs: BTreeSet<i64>,
    /// Raw IEEE bits.
    pub floats: BTreeSet<u32>,
    pub doubles: BTreeSet<u64>,
    pub strings: BTreeSet<String>,
}

impl ConstantValues {
    /// EvoSuite's `StaticConstantPool` seeds: 0, 1, -1 for every numeric kind and the empty string.
    pub fn seeded() -> ConstantValues {
        let mut res = ConstantValues::default();
        for v in [0, 1, -1] {
            res.ints.insert(v);
            res.longs.insert(v as i64);
            res.floats.insert((v as f32).to_bits());
            res.doubles.insert((v as f64).to_bits());
        }
        res.strings.insert(String::new());
        res
    }

    pub(crate) fn from_pool(p: &PoolConstants) -> ConstantValues {
        let mut res = ConstantValues::seeded();
        res.ints.extend(p.ints.iter().copied());
        res.longs.extend(p.longs.iter().copied());
        res.floats.extend(p.floats.iter().copied());
        res.doubles.extend(p.doubles.iter().copied());
        res.strings.extend(p.strings.iter().cloned());
        res
    }

    /// A one-line summary for dumps.
    pub fn summary(&self) -> String {
        let strings: Vec<String> = self.strings.iter().map(|s| crate::statement::string_literal(s)).collect();
        format!(
            "ints {:?} longs {:?} floats {:?} doubles {:?} strings [{}]",
            self.ints,
            self.longs,
            self.floats.iter().map(|b| f32::from_bits(*b)).collect::<Vec<_>>(),
            self.doubles.iter().map(|b| f64::from_bits(*b)).collect::<Vec<_>>(),
            strings.join(", ")
        )
    }
}

/// A string with the same Java `hashCode` as `s` but other contents, when one is two characters
/// away: the first adjacent pair `(c, d)` becomes `(c + 1, d - 31)`, which changes the hash by
/// `31^k - 31 * 31^(k-1) = 0` (`"inc"` -> `"jOc"`). A `switch` on strings compares the hash first
/// and then calls `equals`, whose false side is only reachable with such a twin; no search finds
/// one by mutation, so observed strings bring their twin into the dynamic pool.
pub fn hash_twin(s: &str) -> Option<String> {
    let units: Vec<u16> = s.encode_utf16().collect();
    (0..units.len().saturating_sub(1)).find_map(|i| {
        let (c, d) = (units[i], units[i + 1]);
        if c == u16::MAX || d < 31 {
            return None;
        }
        let mut t = units.clone();
        t[i] = c + 1;
        t[i + 1] = d - 31;
        String::from_utf16(&t).ok()
    })
}

/// A bounded pool of observed values per kind; the oldest value is evicted first
/// (`dynamic_pool_size`, EvoSuite default 50 per kind).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DynamicPool {
    capacity: usize,
    ints: VecDeque<i32>,
    longs: VecDeque<i64>,
    floats: VecDeque<u32>,
    doubles: VecDeque<u64>,
    strings: VecDeque<String>,
}

fn add_bounded<T: PartialEq>(q: &mut VecDeque<T>, v: T, capacity: usize) {
    if capacity == 0 || q.contains(&v) {
        return;
    }
    if q.len() == capacity {
        q.pop_front();
    }
    q.push_back(v);
}

impl DynamicPool {
    pub fn new(capacity: usize) -> DynamicPool {
        DynamicPool {
            capacity,
            ints: VecDeque::new(),
            longs: VecDeque::new(),
            floats: VecDeque::new(),
            doubles: VecDeque::new(),
            strings: VecDeque::new(),
        }
    }

    pub fn add_int(&mut self, v: i32) {
        add_bounded(&mut self.ints, v, self.capacity);
    }

    pub fn add_long(&mut self, v: i64) {
        add_bounded(&mut self.longs, v, self.capacity);
    }

    pub fn add_float(&mut self, v: f32) {
        add_bounded(&mut self.floats, v.to_bits(), self.capacity);
    }

    pub fn add_double(&mut self, v: f64) {
        add_bounded(&mut self.doubles, v.to_bits(), self.capacity);
    }

    pub fn add_string(&mut self, v: &str) {
        add_bounded(&mut self.strings, v.to_string(), self.capacity);
    }

    pub fn is_empty(&self) -> bool {
        self.ints.is_empty()
            && self.longs.is_empty()
            && self.floats.is_empty()
            && self.doubles.is_empty()
            && self.strings.is_empty()
    }
}

/// A value drawn from a pool: an integer-like, a float bit pattern, or a string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PoolValue {
    Int(i64),
    Float(u32),
    Double(u64),
    String(String),
}

/// The static and dynamic pools together, as the factory draws from them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValuePool {
    pub constants: ConstantValues,
    pub dynamic: DynamicPool,
}

fn pick_set<T: Clone>(rng: &mut TestRng, it: impl ExactSizeIterator<Item = T>) -> Option<T> {
    let n = it.len();
    if n == 0 {
        return None;
    }
    let k = rng.random_range(0..n);
    it.into_iter().nth(k)
}

impl ValuePool {
    pub fn new(constants: ConstantValues, dynamic_capacity: usize) -> ValuePool {
        ValuePool { constants, dynamic: DynamicPool::new(dynamic_capacity) }
    }

    /// Draws a value for a primitive kind (`None` = string): from the dynamic pool with
    /// probability `p_dynamic` when it has values of the kind, else from the static pool.
    pub fn draw(&self, rng: &mut TestRng, kind: Option<PrimType>, p_dynamic: f64) -> Option<PoolValue> {
        let use_dynamic = rng.random_bool(p_dynamic.clamp(0.0, 1.0));
        let d = &self.dynamic;
        let c = &self.constants;
        match kind {
            None => {
                if use_dynamic && !d.strings.is_empty() {
                    return pick_set(rng, d.strings.iter().cloned()).map(PoolValue::String);
                }
                pick_set(rng, c.strings.iter().cloned()).map(PoolValue::String)
            }
            Some(PrimType::Long) => {
                if use_dynamic && !d.longs.is_empty() {
                    return pick_set(rng, d.longs.iter().copied()).map(PoolValue::Int);
                }
                pick_set(rng, c.longs.iter().copied()).map(PoolValue::Int)
            }
            Some(PrimType::Float) => {
                if use_dynamic && !d.floats.is_empty() {
                    return pick_set(rng, d.floats.iter().copied()).map(PoolValue::Float);
                }
                pick_set(rng, c.floats.iter().copied()).map(PoolValue::Float)
            }
            Some(PrimType::Double) => {
                if use_dynamic && !d.doubles.is_empty() {
                    return pick_set(rng, d.doubles.iter().copied()).map(PoolValue::Double);
                }
                pick_set(rng, c.doubles.iter().copied()).map(PoolValue::Double)
            }
            Some(PrimType::Boolean) => None,
            Some(_) => {
                if use_dynamic && !d.ints.is_empty() {
                    return pick_set(rng, d.ints.iter().map(|v| *v as i64)).map(PoolValue::Int);
                }
                pick_set(rng, c.ints.iter().map(|v| *v as i64)).map(PoolValue::Int)
            }
        }
    }
}

#[cfg(test)]
mod tests {

    /// Java's `String.hashCode`, over UTF-16 code units.
    fn java_hash(s: &str) -> i32 {
        s.encode_utf16().fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32))
    }

    #[test]
    fn hash_twins_collide() {
        assert_eq!(hash_twin("inc").as_deref(), Some("jOc"));
        for s in ["inc", "dec", "reset", "Aa", "hello world", "x\u{e9}t\u{20ac}"] {
            let t = hash_twin(s).expect("a twin");
            assert_ne!(t, s);
            assert_eq!(java_hash(&t), java_hash(s), "{s:?} -> {t:?}");
        }
        // Too short, or no pair that can move without leaving the char range.
        assert_eq!(hash_twin("a"), None);
        assert_eq!(hash_twin(""), None);
        assert_eq!(hash_twin("\u{1}\u{1}"), None);
    }
    use super::*;

    #[test]
    fn dynamic_pool_evicts_oldest_and_is_drawn_from() {
        let mut d = DynamicPool::new(2);
        d.add_string("a");
        d.add_string("b");
        d.add_string("a");
        d.add_string("c");
        assert_eq!(d.strings, ["b", "c"]);
        let mut pool = ValuePool::new(ConstantValues::default(), 2);
        pool.dynamic = d;
        pool.dynamic.add_int(77);
        let mut rng = crate::rng_from_seed(3);
        for _ in 0..20 {
            let s = pool.draw(&mut rng, None, 1.0);
            assert!(matches!(s, Some(PoolValue::String(ref s)) if s == "b" || s == "c"));
            assert_eq!(pool.draw(&mut rng, Some(PrimType::Short), 1.0), Some(PoolValue::Int(77)));
        }
        // The static pool alone: EvoSuite's seeds.
        let seeded = ValuePool::new(ConstantValues::seeded(), 0);
        assert_eq!(seeded.draw(&mut rng, None, 1.0), Some(PoolValue::String(String::new())));
        assert!(DynamicPool::new(0).is_empty());
    }
}
