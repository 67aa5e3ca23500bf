//! Configurations named on the command line (`--config NAME:key=value:key=value`) and the budget.
//! Each `key=value` becomes `--key value` of `suitesmith generate` (a bare `key` becomes `--key`), so a
//! technique switch added to `generate` later is benchmarked without a change here. The keys the
//! runner sets itself (`class`, `classpath`, `out`, `seed`, ...) are refused. One key is the
//! runner's own: `binary=PATH` runs that `suitesmith` executable for the configuration, so an old
//! build and a new one are compared in one invocation (a speed check).

use std::time::Duration;

/// One named way of running `suitesmith generate`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Configuration {
    /// Used in file names, the CSV and the summary: letters, digits, `-`, `_`, `.`.
    pub name: String,
    /// `(key, value)` in command-line order; `None` for a flag.
    pub options: Vec<(String, Option<String>)>,
}

/// Options `bench` passes itself: one per class, repetition and output directory.
const RESERVED: &[&str] = &["class", "classpath", "prefix", "target", "out", "seed"];

/// The runner's own key: which `suitesmith` executable runs the configuration.
const BINARY: &str = "binary";

impl Configuration {
    /// Parses `NAME` or `NAME:key=value:key=value:flag`.
    pub fn parse(text: &str) -> Result<Configuration, String> {
        let mut parts = text.split(':');
        let name = parts.next().unwrap_or("");
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
            return Err(format!(
                "bad configuration {text:?}: expected NAME:key=value:... with a NAME of letters, digits, '-', '_', '.'"
            ));
        }
        let mut options = Vec::new();
        for part in parts {
            let (key, value) = match part.split_once('=') {
                Some((k, v)) => (k, Some(v.to_string())),
                None => (part, None),
            };
            if key.is_empty()
                || !key.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            {
                return Err(format!("bad option {part:?} in configuration {name}"));
            }
            if RESERVED.contains(&key) {
                return Err(format!("configuration {name} cannot set --{key}: the runner sets it"));
            }
            options.push((key.to_string(), value));
        }
        Ok(Configuration { name: name.to_string(), options })
    }

    /// The arguments this configuration adds to `suitesmith generate` (all its options but
    /// `binary`).
    pub fn args(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (k, v) in self.options.iter().filter(|(k, _)| k != BINARY) {
            out.push(format!("--{k}"));
            if let Some(v) = v {
                out.push(v.clone());
            }
        }
        out
    }

    /// The `suitesmith` executable this configuration runs, when it names one (`binary=PATH`).
    pub fn binary(&self) -> Option<&str> {
        self.get(BINARY)
    }

    /// The value of `key`, if the configuration sets it.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.options.iter().rev().find(|(k, _)| k == key).and_then(|(_, v)| v.as_deref())
    }
}

/// A search budget as `generate` takes it (`60s`, `2m`, `500ms`, `90`), kept as text to pass on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budget {
    pub text: String,
    pub duration: Duration,
}

impl Budget {
    pub fn parse(text: &str) -> Result<Budget, String> {
        let bad = || format!("bad budget {text:?}: expected e.g. 60s, 2m or 500ms");
        let (num, unit) = text.find(|c: char| !c.is_ascii_digit()).map_or((text, ""), |i| text.split_at(i));
        let n: u64 = num.parse().map_err(|_| bad())?;
        let duration = match unit {
            "" | "s" => Duration::from_secs(n),
            "ms" => Duration::from_millis(n),
            "m" => Duration::from_secs(n * 60),
            _ => return Err(bad()),
        };
        if duration.is_zero() {
            return Err(format!("the budget {text:?} is zero"));
        }
        Ok(Budget { text: text.to_string(), duration })
    }

    /// Whole seconds, the unit of the competitions' published budgets.
    pub fn seconds(&self) -> u64 {
        self.duration.as_secs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configuration_becomes_generate_arguments() {
        let c =
            Configuration::parse("dyn-line:algorithm=dynamosa:criteria=line,branch:jacoco").expect("parse");
        assert_eq!(c.name, "dyn-line");
        assert_eq!(c.args(), ["--algorithm", "dynamosa", "--criteria", "line,branch", "--jacoco"]);
        assert_eq!(c.get("algorithm"), Some("dynamosa"));
        assert_eq!(c.get("jacoco"), None);
        assert_eq!(Configuration::parse("plain").expect("parse").args(), Vec::<String>::new());
        // `binary` picks the executable and is not passed on.
        let old = Configuration::parse("old:binary=/opt/old/suitesmith:workers=2").expect("parse");
        assert_eq!(old.binary(), Some("/opt/old/suitesmith"));
        assert_eq!(old.args(), ["--workers", "2"]);
        assert_eq!(c.binary(), None);
    }

    #[test]
    fn bad_configurations_are_refused() {
        assert!(Configuration::parse("").is_err());
        assert!(Configuration::parse("a b:algorithm=x").is_err());
        assert!(Configuration::parse("a:Algo=x").is_err());
        assert_eq!(
            Configuration::parse("a:seed=3").unwrap_err(),
            "configuration a cannot set --seed: the runner sets it"
        );
    }

    #[test]
    fn budgets() {
        assert_eq!(Budget::parse("60s").expect("60s").seconds(), 60);
        assert_eq!(Budget::parse("2m").expect("2m").seconds(), 120);
        assert_eq!(Budget::parse("90").expect("90").duration, Duration::from_secs(90));
        assert_eq!(Budget::parse("500ms").expect("ms").duration, Duration::from_millis(500));
        assert!(Budget::parse("0s").is_err());
        assert!(Budget::parse("1h").is_err());
        assert!(Budget::parse("s").is_err());
    }
}
