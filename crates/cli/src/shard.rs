//! `generate --shard I/N` (docs/scale.md): a deterministic, balanced slice of the classes
//! a run targets, so that N machines (a Kubernetes indexed job, a CI matrix, a Slurm array) each
//! run one slice and `suitesmith merge` puts the outputs together. A class's cost is estimated from
//! its bytecode (methods, conditional branches and switch cases of the class and its nested
//! classes: what the search has to cover); classes go to slices by longest-processing-time first
//! (heaviest first, each to the lightest slice so far, ties by name and slice number), so the
//! slicing depends only on the set of classes, never on the order they were listed in. With
//! `--project` the slice is taken over the classes of all modules together.

use classfile::{ClassFile, ClassPath};
use jvm_model::ClassName;

/// Slice `index` (1-based, as `--shard 2/4` writes it) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// `I/N` with 1 <= I <= N.
    pub(crate) fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {text:?} is not I/N with 1 <= I <= N (e.g. 2/4)");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) =
            (i.trim().parse::<u32>().map_err(|_| bad())?, n.trim().parse::<u32>().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The estimated search cost of `class` (binary name) and its nested classes: per method with
/// code 1, per conditional branch 2 (its two sides), per switch its targets (the cases and the default). A class that cannot be
/// read costs 1.
pub(crate) fn cost(cp: &ClassPath, class: &str) -> u64 {
    let internal = ClassName::from_binary(class).into_internal();
    let nested = format!("{internal}$");
    let names: Vec<String> =
        cp.class_names().filter(|n| *n == internal || n.starts_with(&nested)).map(str::to_string).collect();
    let total: u64 = names.iter().map(|n| class_cost(cp, n)).sum();
    total.max(1)
}

fn class_cost(cp: &ClassPath, internal: &str) -> u64 {
    let Ok(Some(bytes)) = cp.class_bytes(internal) else { return 0 };
    let Ok(cf) = ClassFile::parse(&bytes) else { return 0 };
    let mut cost = 0;
    for m in &cf.methods {
        let Some(Ok(code)) = m.code(&cf.constant_pool) else { continue };
        let Ok(body) = bytecode::decode(&code, &cf.constant_pool) else { continue };
        cost += 1;
        for insn in &body.insns {
            if insn.is_conditional() {
                cost += 2;
            } else if insn.is_switch() {
                cost += insn.targets().count() as u64;
            }
        }
    }
    cost
}

/// The slice each class goes to (0-based), for `costs` given per class: longest processing time
/// first, deterministic for a set of (class, cost) pairs in any order.
pub(crate) fn assign(costs: &[(String, u64)], count: u32) -> Vec<u32> {
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by(|&a, &b| costs[b].1.cmp(&costs[a].1).then_with(|| costs[a].0.cmp(&costs[b].0)));
    let mut load = vec![0u64; count as usize];
    let mut slice = vec![0u32; costs.len()];
    for i in order {
        let lightest = (0..load.len()).min_by_key(|&s| (load[s], s)).unwrap_or(0);
        load[lightest] += costs[i].1;
        slice[i] = lightest as u32;
    }
    slice
}

/// What one slice gets: its classes (in the given order) and the balance of the slicing (the
/// heaviest slice's estimated cost over the mean).
pub(crate) struct Selection {
    pub classes: Vec<String>,
    /// The positions in the costed list of `classes`.
    pub positions: Vec<usize>,
    pub cost: u64,
    pub balance: f64,
}

/// The classes of `shard` among `classes`, with their costs read from `cp`.
pub(crate) fn select(cp: &ClassPath, classes: &[String], shard: Shard) -> Selection {
    let costs: Vec<(String, u64)> = classes.iter().map(|c| (c.clone(), cost(cp, c))).collect();
    select_costed(&costs, shard)
}

/// The classes of `shard` among `costs` (class, estimated cost): for runs whose classes come from
/// several classpaths (the modules of a project), each costed on its own.
pub(crate) fn select_costed(costs: &[(String, u64)], shard: Shard) -> Selection {
    let slice = assign(costs, shard.count);
    let mut load = vec![0u64; shard.count as usize];
    for (i, (_, c)) in costs.iter().enumerate() {
        load[slice[i] as usize] += c;
    }
    let mean = load.iter().sum::<u64>() as f64 / f64::from(shard.count);
    let balance = if mean > 0.0 { *load.iter().max().unwrap_or(&0) as f64 / mean } else { 1.0 };
    let mine = shard.index - 1;
    let positions: Vec<usize> = (0..costs.len()).filter(|&i| slice[i] == mine).collect();
    Selection {
        classes: positions.iter().map(|&i| costs[i].0.clone()).collect(),
        positions,
        cost: load[mine as usize],
        balance,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_one_based() {
        assert_eq!(Shard::parse("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "4", "a/b", "1/0", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_heaviest_go_first_each_to_the_lightest_slice() {
        let costs: Vec<(String, u64)> = [("a", 10), ("b", 7), ("c", 6), ("d", 5), ("e", 2)]
            .iter()
            .map(|(n, c)| (n.to_string(), *c))
            .collect();
        // a -> 0 (10); b -> 1 (7); c -> 1 (13); d -> 0 (15); e -> 1 (15).
        assert_eq!(assign(&costs, 2), vec![0, 1, 1, 0, 1]);
        let mut reversed = costs.clone();
        reversed.reverse();
        let mut back = assign(&reversed, 2);
        back.reverse();
        assert_eq!(back, assign(&costs, 2), "the order of the list does not matter");
        assert_eq!(assign(&costs, 1), vec![0; 5]);
        assert_eq!(assign(&costs, 8), vec![0, 1, 2, 3, 4]);
    }
}
