//! The grouping of criteria as data (paper 002 §3.2–3.3): a "represents" table, each row a
//! criterion and the criteria whose properties it captures, so that only the first guides the
//! search with all its goals and the others contribute subsets (`crate::select`). The default is
//! the paper's (context branch represents branch, line and weak mutation; method-no-exception
//! represents method); a user can give another one in the short text form of `FromStr`.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use goals::Criterion;

use crate::SelectionError;

/// A "represents" table: rows `representative > represented, ...`, in the order given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Represents {
    rows: Vec<(Criterion, Vec<Criterion>)>,
}

impl Default for Represents {
    /// The paper's grouping: {DBC, BC, LC, WM} with DBC, {NTMC, TMC} with NTMC; exception and
    /// output stand alone.
    fn default() -> Represents {
        use Criterion::*;
        Represents {
            rows: vec![(ContextBranch, vec![Branch, Line, WeakMutation]), (MethodNoException, vec![Method])],
        }
    }
}

impl Represents {
    /// A table from its rows (the representative first, then what it represents).
    pub fn new(rows: Vec<(Criterion, Vec<Criterion>)>) -> Represents {
        Represents { rows }
    }

    pub fn rows(&self) -> &[(Criterion, Vec<Criterion>)] {
        &self.rows
    }

    /// The configured `criteria` split into representatives and represented criteria, each in the
    /// order of `criteria`. Greedy in table order, so that a table with cycles (the artifact's
    /// correlation pairs are symmetric) still gives one answer: a row whose key is configured and
    /// not yet represented makes its configured targets represented; every configured criterion
    /// left is a representative. Rows naming criteria that are not configured have no effect, so
    /// with the default table `branch,line` keeps both as representatives.
    pub fn split(&self, criteria: &[Criterion]) -> (Vec<Criterion>, Vec<Criterion>) {
        let mut represented = BTreeSet::new();
        for (rep, targets) in &self.rows {
            if !criteria.contains(rep) || represented.contains(rep) {
                continue;
            }
            for t in targets {
                if t != rep && criteria.contains(t) {
                    represented.insert(*t);
                }
            }
        }
        criteria.iter().partition(|c| !represented.contains(*c))
    }
}

impl fmt::Display for Represents {
    /// `cbranch>branch,line,weakmutation;methodnoexception>method`, the form `FromStr` reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (rep, targets)) in self.rows.iter().enumerate() {
            if i > 0 {
                f.write_str(";")?;
            }
            let names: Vec<&str> = targets.iter().map(|c| c.name()).collect();
            write!(f, "{}>{}", rep.name(), names.join(","))?;
        }
        Ok(())
    }
}

impl FromStr for Represents {
    type Err = SelectionError;

    /// Rows separated by `;`, each `representative>represented,...` with the criteria's
    /// command-line names (`Criterion::name`); spaces are ignored and the empty text is the empty
    /// table (every criterion its own representative: all goals guide).
    fn from_str(text: &str) -> Result<Represents, SelectionError> {
        let err = |reason: String| SelectionError::Represents { text: text.to_string(), reason };
        let criterion = |name: &str| {
            Criterion::from_name(name.trim())
                .ok_or_else(|| err(format!("unknown criterion `{}`", name.trim())))
        };
        let mut rows: Vec<(Criterion, Vec<Criterion>)> = Vec::new();
        for row in text.split(';').filter(|r| !r.trim().is_empty()) {
            let (key, targets) =
                row.split_once('>').ok_or_else(|| err(format!("row `{}` has no `>`", row.trim())))?;
            let key = criterion(key)?;
            if rows.iter().any(|(k, _)| *k == key) {
                return Err(err(format!("`{}` has two rows", key.name())));
            }
            let targets = targets
                .split(',')
                .filter(|t| !t.trim().is_empty())
                .map(criterion)
                .collect::<Result<Vec<_>, _>>()?;
            if targets.contains(&key) {
                return Err(err(format!("`{}` represents itself", key.name())));
            }
            rows.push((key, targets));
        }
        Ok(Represents { rows })
    }
}
