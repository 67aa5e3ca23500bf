//! Invariants of input heaps for the exploration (paper 003, SUSHI; digest 003-004 §A.2.7, §C.4):
//! declarative rules consulted at every lazy resolution, a per-class heap scope, and the
//! conservative use of the entry class's own `repOk` (`explore` runs it; this module holds the
//! rules, the pattern syntax and the seam in `lazy`'s resolution).
//!
//! Pattern syntax (JBSE's HEX is not described in the paper, so ours is smaller): a pattern is a
//! dot-separated list of segments matched against a whole access path. The first segment is a
//! root (`this`, `p0`, `p1`, ...) or `**`, any prefix (a root followed by zero or more fields);
//! every later segment is a field name or `*`, exactly one field of any name. Field names are
//! matched without their owner class; array steps never match. Examples: `**.header` (every
//! `header` field), `this.root`, `**.next.previous`. An `alias_only` target is a prefix of its
//! pattern's segments: `alias_only("**.next.previous", "**")` says that `X.next.previous` may only
//! be the object at `X` (the access path the `**` matched), which is how "the `previous` of my
//! `next` is me" reads.
//!
//! How a rule acts on the alternatives of a resolution (null, aliases, fresh objects):
//! `not_null` removes null, `null_only` keeps null alone, `expand_only` removes the aliases,
//! `alias_only` keeps the alias of the target object alone (none when the target is not a
//! materialised input object of a fitting class). When no alternative is left the path is not
//! one a legal state can take: it is dropped and counted (`ExploreStats::rule_pruned_paths`).
//! Each alternative removed is a subtree the exploration does not enter
//! (`ExploreStats::rule_pruned_alternatives`, counted the first time the resolution is reached).
//!
//! `Invariants::none()`, the default, has no rules, no per-class scope and no `repOk`: the
//! exploration is exactly the one without this module.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use jvm_model::ClassName;
use protocol::{AccessPath, Clause, Root, Step};

use crate::interp::Machine;
use crate::lazy::{Alt, path_text};
use crate::value::ObjId;

/// The invariants an exploration assumes of its input heap.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Invariants {
    /// Consulted in order at every resolution; all that match apply.
    pub rules: Vec<Rule>,
    /// Fresh objects per path of a class (binary name, `sushi.DList$Entry`), in place of
    /// `ExploreConfig::heap_scope` for that class.
    pub max_objects: BTreeMap<String, u32>,
    /// Prune paths whose input state cannot satisfy the entry class's `public boolean repOk()`
    /// (when it has one and the entry method is an instance method): see `explore`.
    pub rep_ok: bool,
    /// Paths of one `repOk` exploration; past it the check is inconclusive and the path is kept.
    pub rep_ok_paths: u32,
}

impl Invariants {
    /// No invariants: the exploration is unchanged.
    pub fn none() -> Invariants {
        Invariants::default()
    }

    /// Only the entry class's `repOk`, with a budget of 64 paths per check.
    pub fn rep_ok() -> Invariants {
        Invariants { rep_ok: true, rep_ok_paths: 64, ..Invariants::default() }
    }

    /// Adds a rule (builder style).
    pub fn with(mut self, rule: Rule) -> Invariants {
        self.rules.push(rule);
        self
    }

    /// Sets the heap scope of one class (binary name).
    pub fn scope(mut self, class: &str, k: u32) -> Invariants {
        self.max_objects.insert(class.to_string(), k);
        self
    }

    /// The heap scope of `class` (internal name) given the exploration's default.
    pub(crate) fn scope_of(&self, class: &str, default: u32) -> u32 {
        if self.max_objects.is_empty() {
            return default;
        }
        self.max_objects.get(&ClassName::binary_of(class)).copied().unwrap_or(default)
    }
}

/// One segment of a pattern after its first.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Seg {
    Any,
    Field(String),
}

/// A pattern over access paths (see the module's syntax).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// `None` for `**`.
    root: Option<Root>,
    segs: Vec<Seg>,
    text: String,
}

/// Why a pattern or rule could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternError {
    /// The pattern (or target) is empty or has an empty segment.
    Empty(String),
    /// The first segment is neither `**` nor a root (`this`, `p<k>`).
    BadRoot(String),
    /// `**` after the first segment.
    InnerStars(String),
    /// An `alias_only` target that is not a prefix of its pattern's segments.
    NotAPrefix { pattern: String, target: String },
    /// A rule's text that is not `kind(pattern)` or `kind(pattern, targets)` of a known kind.
    BadRule(String),
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternError::Empty(p) => write!(f, "empty segment in pattern {p:?}"),
            PatternError::BadRoot(p) => write!(f, "pattern {p:?} must start with `**`, `this` or `p<k>`"),
            PatternError::InnerStars(p) => write!(f, "`**` only as the first segment of {p:?}"),
            PatternError::NotAPrefix { pattern, target } => {
                write!(f, "alias target {target:?} is not a prefix of {pattern:?}")
            }
            PatternError::BadRule(r) => write!(
                f,
                "rule {r:?} must be not_null(P), null_only(P), expand_only(P), alias_only(P, T) or \
                 alias_targets(P, T | T ..)"
            ),
        }
    }
}

impl std::error::Error for PatternError {}

impl Pattern {
    pub fn parse(text: &str) -> Result<Pattern, PatternError> {
        let mut parts = text.split('.');
        let first = parts.next().unwrap_or("");
        let root = match first {
            "**" => None,
            "this" => Some(Root::This),
            p => match p.strip_prefix('p').and_then(|k| k.parse::<u16>().ok()) {
                Some(k) => Some(Root::Param(k)),
                None if p.is_empty() => return Err(PatternError::Empty(text.into())),
                None => return Err(PatternError::BadRoot(text.into())),
            },
        };
        let mut segs = Vec::new();
        for s in parts {
            segs.push(match s {
                "" => return Err(PatternError::Empty(text.into())),
                "**" => return Err(PatternError::InnerStars(text.into())),
                "*" => Seg::Any,
                name => Seg::Field(name.to_string()),
            });
        }
        Ok(Pattern { root, segs, text: text.to_string() })
    }

    /// Whether the pattern matches the whole path.
    pub fn matches(&self, p: &AccessPath) -> bool {
        let n = self.segs.len();
        match self.root {
            Some(r) if r != p.root || p.steps.len() != n => return false,
            None if p.steps.len() < n => return false,
            _ => {}
        }
        let tail = &p.steps[p.steps.len() - n..];
        tail.iter().zip(&self.segs).all(|(st, seg)| match (st, seg) {
            (Step::Field { .. }, Seg::Any) => true,
            (Step::Field { name, .. }, Seg::Field(f)) => name == f,
            _ => false,
        })
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// What a rule allows where its pattern matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleKind {
    /// Never null.
    NotNull,
    /// Always null.
    NullOnly,
    /// Never an alias of an earlier input object: null or fresh.
    ExpandOnly,
    /// Only the alias of the object at the matched path without its last `drop` fields.
    AliasOnly { drop: usize, target: String },
    /// Aliases only of objects whose access path matches one of these patterns; null and fresh
    /// objects stay allowed.
    AliasTargets(Vec<Pattern>),
}

/// A pattern and what it allows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub pattern: Pattern,
    pub kind: RuleKind,
}

impl Rule {
    pub fn not_null(pattern: &str) -> Result<Rule, PatternError> {
        Ok(Rule { pattern: Pattern::parse(pattern)?, kind: RuleKind::NotNull })
    }

    pub fn null_only(pattern: &str) -> Result<Rule, PatternError> {
        Ok(Rule { pattern: Pattern::parse(pattern)?, kind: RuleKind::NullOnly })
    }

    pub fn expand_only(pattern: &str) -> Result<Rule, PatternError> {
        Ok(Rule { pattern: Pattern::parse(pattern)?, kind: RuleKind::ExpandOnly })
    }

    /// `target` is a prefix of `pattern`'s segments (`"**"` for `"**.next.previous"`).
    pub fn alias_only(pattern: &str, target: &str) -> Result<Rule, PatternError> {
        let p = Pattern::parse(pattern)?;
        let t = Pattern::parse(target)?;
        if t.root != p.root || t.segs.len() > p.segs.len() || p.segs[..t.segs.len()] != t.segs[..] {
            return Err(PatternError::NotAPrefix { pattern: pattern.into(), target: target.into() });
        }
        let drop = p.segs.len() - t.segs.len();
        Ok(Rule { pattern: p, kind: RuleKind::AliasOnly { drop, target: target.into() } })
    }

    /// Aliases only of objects first reached at a path matching one of `targets`: in a doubly
    /// linked list, `alias_targets("**.next", &["**.header", "**.previous"])` (a node reached by a
    /// `next` already has its one predecessor).
    pub fn alias_targets(pattern: &str, targets: &[&str]) -> Result<Rule, PatternError> {
        let t = targets.iter().map(|t| Pattern::parse(t)).collect::<Result<Vec<_>, _>>()?;
        Ok(Rule { pattern: Pattern::parse(pattern)?, kind: RuleKind::AliasTargets(t) })
    }

    /// A rule from the text its `Display` writes: `not_null(P)`, `null_only(P)`,
    /// `expand_only(P)`, `alias_only(P, T)` or `alias_targets(P, T1 | T2 ..)` (the command
    /// line's `--sushi-rule`; spaces around the separators are allowed).
    pub fn parse(text: &str) -> Result<Rule, PatternError> {
        let bad = || PatternError::BadRule(text.to_string());
        let t = text.trim();
        let (kind, rest) = t.split_once('(').ok_or_else(bad)?;
        let args = rest.strip_suffix(')').ok_or_else(bad)?;
        let (pattern, targets) = match args.split_once(',') {
            Some((p, t)) => (p.trim(), Some(t.trim())),
            None => (args.trim(), None),
        };
        match (kind.trim(), targets) {
            ("not_null", None) => Rule::not_null(pattern),
            ("null_only", None) => Rule::null_only(pattern),
            ("expand_only", None) => Rule::expand_only(pattern),
            ("alias_only", Some(t)) => Rule::alias_only(pattern, t),
            ("alias_targets", Some(t)) => {
                let t: Vec<&str> = t.split('|').map(str::trim).collect();
                Rule::alias_targets(pattern, &t)
            }
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            RuleKind::NotNull => write!(f, "not_null({})", self.pattern),
            RuleKind::NullOnly => write!(f, "null_only({})", self.pattern),
            RuleKind::ExpandOnly => write!(f, "expand_only({})", self.pattern),
            RuleKind::AliasOnly { target, .. } => write!(f, "alias_only({}, {target})", self.pattern),
            RuleKind::AliasTargets(t) => {
                let t: Vec<&str> = t.iter().map(|p| p.text.as_str()).collect();
                write!(f, "alias_targets({}, {})", self.pattern, t.join(" | "))
            }
        }
    }
}

/// What the entry path decided for one access path, for the `repOk` check.
#[derive(Clone, Debug)]
pub(crate) enum Decision {
    Null,
    Fresh(String),
    /// The same object as the one at this path (text), of this class (internal name) when the
    /// entry path made it fresh.
    Alias(AccessPath, Option<String>),
}

/// The reference decisions of an entry path by access path text, fixed while `repOk` runs on the
/// same receiver.
#[derive(Clone, Debug, Default)]
pub(crate) struct Preset {
    pub decisions: BTreeMap<String, Decision>,
}

impl Preset {
    /// The decisions of the `this`-rooted reference clauses (the only inputs `repOk` shares).
    pub fn of(clauses: &[Clause]) -> Preset {
        let mut fresh: BTreeMap<String, String> = BTreeMap::new();
        for c in clauses {
            if let Clause::Fresh { path, class } = c {
                fresh.insert(path_text(path), ClassName::internal_of(class));
            }
        }
        let mut decisions = BTreeMap::new();
        for c in clauses {
            let (p, d) = match c {
                Clause::Null(p) => (p, Decision::Null),
                Clause::Fresh { path, class } => (path, Decision::Fresh(ClassName::internal_of(class))),
                // An alias of a parameter's object says nothing `repOk` can use: free.
                Clause::Alias(p, t) if t.root == Root::This => {
                    (p, Decision::Alias(t.clone(), fresh.get(&path_text(t)).cloned()))
                }
                _ => continue,
            };
            if p.root == Root::This {
                decisions.insert(path_text(p), d);
            }
        }
        Preset { decisions }
    }
}

/// The per-replay bookkeeping of a `repOk` check: which input object stands for which of the
/// entry path's access paths, and which objects came from resolutions the entry never made.
#[derive(Clone, Debug, Default)]
pub(crate) struct Binding {
    pub objects: BTreeMap<String, ObjId>,
    /// Objects materialised by free resolutions: any of them may be an object the entry path made
    /// fresh at a path `repOk` reaches later.
    pub free: BTreeSet<ObjId>,
}

impl Machine<'_, '_> {
    /// The alternatives the rules and (in a `repOk` check) the entry path's decisions leave of a
    /// resolution at `path`, in their original order.
    pub(crate) fn constrain(&mut self, path: &AccessPath, alts: Vec<Alt>) -> Vec<Alt> {
        let mut alts = self.preset_alts(path, alts);
        let Some(st) = self.lazy.as_mut() else { return alts };
        let first_visit = st.next_choice >= st.choices.len();
        let before = alts.len();
        let inv = st.invariants.clone();
        for rule in inv.rules.iter().filter(|r| r.pattern.matches(path)) {
            match &rule.kind {
                RuleKind::NotNull => alts.retain(|a| !matches!(a, Alt::Null)),
                RuleKind::NullOnly => alts.retain(|a| matches!(a, Alt::Null)),
                RuleKind::ExpandOnly => alts.retain(|a| !matches!(a, Alt::Alias(_))),
                RuleKind::AliasOnly { drop, .. } => {
                    let mut target = path.clone();
                    target.steps.truncate(path.steps.len() - drop);
                    let paths = &st.paths;
                    alts.retain(|a| matches!(a, Alt::Alias(o) if paths.get(o) == Some(&target)));
                }
                RuleKind::AliasTargets(ts) => {
                    let paths = &st.paths;
                    alts.retain(|a| match a {
                        Alt::Alias(o) => paths.get(o).is_some_and(|p| ts.iter().any(|t| t.matches(p))),
                        _ => true,
                    });
                }
            }
        }
        if first_visit {
            st.rule_pruned += (before - alts.len()) as u64;
        }
        alts
    }

    /// In a `repOk` check, the alternatives consistent with the entry path's decision at `path`
    /// (all of them where it made none).
    fn preset_alts(&mut self, path: &AccessPath, mut alts: Vec<Alt>) -> Vec<Alt> {
        let Some(st) = self.lazy.as_ref() else { return alts };
        let Some(preset) = st.preset.clone() else { return alts };
        let key = path_text(path);
        let Some(d) = preset.decisions.get(&key) else { return alts };
        // Reached before as the target of an alias: the same object again.
        if let Some(o) = st.binding.objects.get(&key).copied() {
            alts.retain(|a| matches!(a, Alt::Alias(x) if *x == o));
            return alts;
        }
        let free_of = |me: &Self, class: &str| -> Vec<Alt> {
            let Some(st) = me.lazy.as_ref() else { return Vec::new() };
            st.binding
                .free
                .iter()
                .filter(|o| me.heap.class_of(**o) == class)
                .map(|o| Alt::Alias(*o))
                .collect()
        };
        match d {
            Decision::Null => alts.retain(|a| matches!(a, Alt::Null)),
            Decision::Fresh(c) => {
                // The entry's fresh object, whatever the heap scope says (the entry path had it),
                // or an object `repOk` reached first by a path the entry never took.
                alts = free_of(self, c);
                alts.push(Alt::Fresh(c.clone()));
            }
            Decision::Alias(t, class) => {
                let bound = st.binding.objects.get(&path_text(t)).copied();
                match (bound, class) {
                    (Some(o), _) => alts.retain(|a| matches!(a, Alt::Alias(x) if *x == o)),
                    (None, Some(c)) => {
                        // The target is not materialised yet: it is one of the free objects or a
                        // new one, materialised under the target's path so that its fields get
                        // the entry path's variable names.
                        alts = free_of(self, c);
                        alts.push(Alt::FreshAt(c.clone(), t.clone()));
                    }
                    (None, None) => {}
                }
            }
        }
        alts
    }

    /// Records which object a resolution at `path` gave, for the `repOk` check's bookkeeping.
    pub(crate) fn bind(&mut self, path: &AccessPath, alt: &Alt, obj: Option<ObjId>) {
        let Some(st) = self.lazy.as_mut() else { return };
        let Some(preset) = st.preset.as_ref() else { return };
        let Some(o) = obj else { return };
        let key = path_text(path);
        let Some(d) = preset.decisions.get(&key) else {
            if matches!(alt, Alt::Fresh(_)) {
                st.binding.free.insert(o);
            }
            return;
        };
        if let Decision::Alias(t, _) = d {
            st.binding.objects.insert(path_text(t), o);
        }
        st.binding.objects.insert(key, o);
        // An object that now stands for one of the entry's is no longer free.
        st.binding.free.remove(&o);
    }
}
