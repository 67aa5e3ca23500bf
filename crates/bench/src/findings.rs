//! The summary's sections on what the runs found besides coverage: DSE's replays and where they
//! stopped (what a model of the JDK is missing: docs/dse.md), and the contract violations the runs
//! reported (each to be judged real or not: docs/contracts.md). Both come from the rows, so that a
//! journal committed under docs/results keeps them after the run directories are gone.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::report::Row;

/// Stop reasons listed per configuration, the most frequent first.
const TOP_STOPS: usize = 8;

/// Per configuration with DSE figures: replays, stopped ones, those stopped at an unmodelled
/// string method, tests kept, and the most frequent stop reasons. Nothing when no row has DSE.
pub fn dse_section(md: &mut String, rows: &[Row], configs: &[String]) {
    if rows.iter().all(|r| r.dse.is_none()) {
        return;
    }
    md.push_str(
        "\n## DSE: replays and where they stopped\n\n\
         | configuration | runs with DSE | replays | stopped | stopped at string methods | tests kept | most frequent stops |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for config in configs {
        let figures: Vec<_> =
            rows.iter().filter(|r| &r.config == config).filter_map(|r| r.dse.as_ref()).collect();
        if figures.is_empty() {
            continue;
        }
        let sum = |f: fn(&crate::report::DseFigures) -> u64| figures.iter().map(|d| f(d)).sum::<u64>();
        let mut stops: BTreeMap<&str, u64> = BTreeMap::new();
        for d in &figures {
            for (k, v) in &d.stops {
                *stops.entry(k.as_str()).or_default() += v;
            }
        }
        let mut top: Vec<(&str, u64)> = stops.into_iter().collect();
        top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let top: Vec<String> =
            top.iter().take(TOP_STOPS).map(|(k, v)| format!("{} {v}", k.replace('|', "\\|"))).collect();
        let _ = writeln!(
            md,
            "| {config} | {} | {} | {} | {} | {} | {} |",
            figures.len(),
            sum(|d| d.replays),
            sum(|d| d.replays_stopped),
            sum(|d| d.replays_stopped_at_string_methods),
            sum(|d| d.tests_kept),
            top.join("; ")
        );
    }
}

/// Every distinct contract violation reported, with the configurations and seeds that reported
/// it. Nothing when there is none.
pub fn violations_section(md: &mut String, rows: &[Row]) {
    let mut seen: BTreeMap<(&str, &str), Vec<String>> = BTreeMap::new();
    for r in rows {
        for v in &r.violation_reports {
            seen.entry((r.class.as_str(), v.as_str()))
                .or_default()
                .push(format!("{} seed {}", r.config, r.seed));
        }
    }
    if seen.is_empty() {
        return;
    }
    md.push_str("\n## Contract violations reported (docs/contracts.md)\n\n");
    for ((class, v), runs) in seen {
        let _ = writeln!(md, "- {class}: {v} ({})", runs.join(", "));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::DseFigures;

    fn row(config: &str, seed: u64, dse: Option<DseFigures>, violations: &[&str]) -> Row {
        Row {
            class: "a.B".into(),
            config: config.into(),
            seed,
            dse,
            violation_reports: violations.iter().map(|v| v.to_string()).collect(),
            ..Row::default()
        }
    }

    fn figures(stops: &[(&str, u64)], kept: u64) -> DseFigures {
        let stopped = stops.iter().map(|s| s.1).sum();
        DseFigures {
            replays: 10,
            replays_stopped: stopped,
            replays_stopped_at_string_methods: 1,
            tests_kept: kept,
            stops: stops.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        }
    }

    #[test]
    fn dse_figures_are_summed_per_configuration_with_the_top_stops() {
        let rows = [
            row("new", 1, Some(figures(&[("step limit", 2), ("a|b", 1)], 3)), &[]),
            row("new", 2, Some(figures(&[("step limit", 1)], 0)), &[]),
            row("old", 1, None, &[]),
        ];
        let mut md = String::new();
        dse_section(&mut md, &rows, &["new".into(), "old".into()]);
        assert!(md.contains("| new | 2 | 20 | 4 | 2 | 3 | step limit 3; a\\|b 1 |"), "{md}");
        assert!(!md.contains("| old |"), "{md}");
        let mut none = String::new();
        dse_section(&mut none, &rows[2..], &["old".into()]);
        assert!(none.is_empty());
    }

    #[test]
    fn violations_are_listed_once_with_the_runs_that_reported_them() {
        let v = "equals_symmetric a.B.equals: x.equals(y) but not y.equals(x)";
        let rows = [row("new", 1, None, &[v]), row("new", 2, None, &[v]), row("old", 1, None, &[])];
        let mut md = String::new();
        violations_section(&mut md, &rows);
        assert!(md.ends_with(&format!("- a.B: {v} (new seed 1, new seed 2)\n")), "{md}");
    }
}
