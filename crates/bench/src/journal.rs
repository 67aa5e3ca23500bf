//! The runs an invocation finished, one JSON line each in `rows.jsonl` of the output directory
//! (the row and the configuration's options), written as each run ends. With `--resume`, an
//! invocation into the same directory reads them back and skips those runs, so a long benchmark
//! stopped part-way (a machine's session ended) goes on where it stopped and still writes one
//! `results.csv` and one summary over every run. `results.csv` cannot serve: it rounds figures
//! and keeps no configuration options.
//!
//! A finished run is reused only for the same class, configuration name, seed, options and
//! budget; a run of the same name made with other options is an error, not a silent mix.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::BenchError;
use crate::config::Configuration;
use crate::report::Row;

/// `(class, configuration name, seed)`.
pub type RunKey = (String, String, u64);

#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Entry {
    options: Vec<(String, Option<String>)>,
    row: Row,
}

/// The open journal of one invocation.
pub struct Journal {
    path: PathBuf,
    file: std::fs::File,
    done: BTreeMap<RunKey, Entry>,
}

impl Journal {
    /// Opens `out/rows.jsonl`: with `resume`, reads the runs already there and appends; without,
    /// starts it empty.
    pub fn open(out: &Path, resume: bool) -> Result<Journal, BenchError> {
        let path = out.join("rows.jsonl");
        let io = |what: String| move |e: std::io::Error| BenchError::Io { what, source: e };
        let mut done = BTreeMap::new();
        if resume && path.is_file() {
            let text =
                std::fs::read_to_string(&path).map_err(io(format!("cannot read {}", path.display())))?;
            for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                let entry: Entry = serde_json::from_str(line).map_err(|e| {
                    BenchError::BadInput(format!("--resume: {} line {}: {e}", path.display(), i + 1))
                })?;
                let key = (entry.row.class.clone(), entry.row.config.clone(), entry.row.seed);
                done.insert(key, entry);
            }
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(resume)
            .write(true)
            .truncate(!resume)
            .open(&path)
            .map_err(io(format!("cannot open {}", path.display())))?;
        Ok(Journal { path, file, done })
    }

    /// The finished run of `config` on `class` with `seed` and this budget, if the journal has
    /// one; an error when it has one made with other options or another budget.
    pub fn finished(
        &self,
        class: &str,
        config: &Configuration,
        seed: u64,
        budget_s: f64,
    ) -> Result<Option<Row>, BenchError> {
        let Some(e) = self.done.get(&(class.to_string(), config.name.clone(), seed)) else {
            return Ok(None);
        };
        if e.options != config.options || e.row.budget_s != budget_s {
            return Err(BenchError::BadInput(format!(
                "--resume: {} has a run of {class} seed {seed} under configuration {} made with other \
                 options or another budget; give another --out or the same configuration",
                self.path.display(),
                config.name
            )));
        }
        Ok(Some(e.row.clone()))
    }

    /// Records a finished run.
    pub fn append(&mut self, config: &Configuration, row: &Row) -> Result<(), BenchError> {
        let entry = Entry { options: config.options.clone(), row: row.clone() };
        let line = serde_json::to_string(&entry).map_err(|e| BenchError::BadInput(e.to_string()))?;
        writeln!(self.file, "{line}")
            .and_then(|()| self.file.flush())
            .map_err(|e| BenchError::Io { what: format!("cannot write {}", self.path.display()), source: e })
    }
}
