//! The `--goal-selection smart|all` switch and smart selection's options (paper 002,
//! docs/selection.md), shared by `generate` and `search`: arguments -> `engine::GoalSelection`.
//! `all` by default (the search as it was) until the benchmark ablation decides. Every value is
//! read as text and checked here, so that a bad one is one line and exit 2.

use crate::Failure;

#[derive(clap::Args, Debug, Clone)]
pub(crate) struct SelectionArgs {
    /// Which goals guide the search: `all` of the criteria's, or `smart` selection's (paper 002:
    /// the representatives' goals, the last lines of long blocks, the subsuming mutants; the others
    /// are still scored, archived and reported).
    #[arg(long, default_value = "all")]
    goal_selection: String,
    /// Smart selection: blocks with fewer source lines give no line goal (default 8).
    #[arg(long)]
    line_threshold: Option<String>,
    /// Smart selection: how a block's lines are measured, `count` (the paper) or `span` (the
    /// artifact: last − first).
    #[arg(long)]
    line_rule: Option<String>,
    /// Smart selection: the subsuming mutants kept per site, `all` (the paper) or a number (the
    /// artifact keeps 1).
    #[arg(long)]
    mutants_per_site: Option<String>,
    /// Smart selection: whole suite's relative weight of the line and mutant subsets (default
    /// 0.1), or `none` for weight 1.
    #[arg(long)]
    subset_weight: Option<String>,
    /// Smart selection: the "represents" table, e.g.
    /// `cbranch>branch,line,weakmutation;methodnoexception>method` (the default).
    #[arg(long)]
    represents: Option<String>,
}

impl SelectionArgs {
    /// The configuration; an unknown mode, a bad number or table, or an option of smart selection
    /// given with `all` is bad input.
    pub(crate) fn config(&self) -> Result<engine::GoalSelection, Failure> {
        let bad = |s: String| Failure::BadInput(s);
        match self.goal_selection.as_str() {
            "all" => {
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
            "smart" => self.options().map(engine::GoalSelection::Smart),
            other => Err(bad(format!("--goal-selection {other:?}: expected smart or all"))),
        }
    }

    fn options(&self) -> Result<selection::Options, Failure> {
        let bad = |s: String| Failure::BadInput(s);
        let mut o = selection::Options::default();
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
