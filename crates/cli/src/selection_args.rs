//! Smart selection's options (paper 002, docs/selection.md), part of `TechniqueArgs` (whose
//! `--goal-selection smart|all` switch picks the mode): arguments -> `engine::GoalSelection`.
//! Every value is read as text and checked here, so that a bad one is one line and exit 2; one not
//! given is the paper's (`selection::Options::default`), which each help names.

use crate::Failure;

/// What `--help` says of an option: `text` and the paper's value, read from `selection::Options`.
fn with_default(text: &str, value: impl std::fmt::Display) -> String {
    format!("{text} [default: {value}]")
}

#[derive(clap::Args, Debug, Clone)]
pub(crate) struct SelectionArgs {
    // The options are text, not values with clap defaults: given with `--goal-selection all` they
    // are bad input, so whether one was given must be known. Their help names the default.
    #[arg(long, help = with_default(
        "Smart selection: blocks with fewer source lines give no line goal",
        selection::Options::default().line_threshold,
    ))]
    line_threshold: Option<String>,
    #[arg(long, help = with_default(
        "Smart selection: how a block's lines are measured, `count` (the paper) or `span` (the \
         artifact: last − first)",
        format!("{:?}", selection::Options::default().line_rule).to_lowercase(),
    ))]
    line_rule: Option<String>,
    #[arg(long, help = with_default(
        "Smart selection: the subsuming mutants kept per site, `all` (the paper) or a number (the \
         artifact keeps 1)",
        selection::Options::default().mutants_per_site.map_or("all".to_string(), |k| k.to_string()),
    ))]
    mutants_per_site: Option<String>,
    #[arg(long, help = with_default(
        "Smart selection: whole suite's relative weight of the line and mutant subsets, or `none` \
         for weight 1",
        selection::Options::default().subset_weight.map_or("none".to_string(), |w| w.to_string()),
    ))]
    subset_weight: Option<String>,
    #[arg(long, help = with_default(
        "Smart selection: the \"represents\" table, e.g. `cbranch>branch,line`",
        selection::Options::default().represents,
    ))]
    represents: Option<String>,
}

impl SelectionArgs {
    /// `base` with these options; a bad number or table, or an option of smart selection given
    /// with `all`, is bad input.
    pub(crate) fn config(&self, base: engine::GoalSelection) -> Result<engine::GoalSelection, Failure> {
        let bad = |s: String| Failure::BadInput(s);
        match base {
            engine::GoalSelection::All => {
                let given = [
                    ("--line-threshold", self.line_threshold.is_some()),
                    ("--line-rule", self.line_rule.is_some()),
                    ("--mutants-per-site", self.mutants_per_site.is_some()),
                    ("--subset-weight", self.subset_weight.is_some()),
                    ("--represents", self.represents.is_some()),
                ];
                match given.iter().find(|g| g.1) {
                    Some((name, _)) => Err(bad(format!("{name} needs --goal-selection smart"))),
                    None => Ok(engine::GoalSelection::All),
                }
            }
            engine::GoalSelection::Smart(o) => self.options(o).map(engine::GoalSelection::Smart),
        }
    }

    fn options(&self, mut o: selection::Options) -> Result<selection::Options, Failure> {
        let bad = |s: String| Failure::BadInput(s);
        if let Some(t) = &self.line_threshold {
            o.line_threshold = t
                .parse()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| bad(format!("--line-threshold {t:?}: expected a number of lines ≥ 1")))?;
        }
        if let Some(r) = &self.line_rule {
            o.line_rule = match r.as_str() {
                "count" => selection::LineRule::Count,
                "span" => selection::LineRule::Span,
                _ => return Err(bad(format!("--line-rule {r:?}: expected count or span"))),
            };
        }
        if let Some(m) = &self.mutants_per_site {
            o.mutants_per_site =
                match m.as_str() {
                    "all" => None,
                    n => Some(n.parse().ok().filter(|&k: &usize| k > 0).ok_or_else(|| {
                        bad(format!("--mutants-per-site {m:?}: expected all or a number ≥ 1"))
                    })?),
                };
        }
        if let Some(w) = &self.subset_weight {
            o.subset_weight = match w.as_str() {
                "none" => None,
                x => {
                    Some(x.parse().ok().filter(|v: &f64| *v > 0.0 && v.is_finite()).ok_or_else(|| {
                        bad(format!("--subset-weight {w:?}: expected none or a weight > 0"))
                    })?)
                }
            };
        }
        if let Some(t) = &self.represents {
            o.represents = t.parse().map_err(|e: selection::SelectionError| bad(e.to_string()))?;
        }
        Ok(o)
    }
}
