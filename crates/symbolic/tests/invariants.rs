//! Invariants of input heaps (paper 003, SUSHI; digest 003-004 §A.2.7) over the `sushi` fixtures:
//! declarative rules at every lazy resolution and the conservative use of a class's `repOk` keep
//! the explored paths within states a legal call sequence can build: the spurious shapes go, every
//! path kept is one found without invariants, Figure 3's path stays, and the exploration stays
//! deterministic. Figures are a snapshot (`test_data/invariants.figures.txt`; refresh with
//! `UPDATE_EXPECT=1`).

use std::collections::BTreeSet;

use expect_test::{expect, expect_file};
use protocol::{AccessPath, Root, Step};
use symbolic::{
    Concolic, Exploration, ExploreConfig, Invariants, PathEnd, Pattern, Rule, SymConfig, clause_text,
};

mod lazy_common;

use lazy_common::{db, plan};

fn rule(r: Result<Rule, symbolic::PatternError>) -> Rule {
    r.unwrap_or_else(|e| panic!("{e}"))
}

/// The generic invariants of a circular doubly linked list with a header (§A.2.7's "partial"
/// invariants of `sample`): the header and every link are there, and a link's back link is
/// the node it came from.
fn dlist_rules() -> Invariants {
    Invariants::none()
        .with(rule(Rule::not_null("**.header")))
        .with(rule(Rule::not_null("**.next")))
        .with(rule(Rule::not_null("**.previous")))
        .with(rule(Rule::alias_only("**.next.previous", "**")))
        .with(rule(Rule::alias_only("**.previous.next", "**")))
        .with(rule(Rule::alias_targets("**.next", &["**.header", "**.previous"])))
        .with(rule(Rule::alias_targets("**.previous", &["**.header", "**.next"])))
}

/// Per subject: class, method, descriptor, the rules (besides `repOk`) and the bounds.
struct Subject {
    class: &'static str,
    name: &'static str,
    desc: &'static str,
    rules: fn() -> Invariants,
}

fn tree_rules() -> Invariants {
    // Tree children are never shared, and a child's parent is the node it hangs from.
    Invariants::none()
        .with(rule(Rule::expand_only("**.left")))
        .with(rule(Rule::expand_only("**.right")))
        .with(rule(Rule::alias_only("**.left.parent", "**")))
        .with(rule(Rule::alias_only("**.right.parent", "**")))
        .with(rule(Rule::null_only("this.root.parent")))
}

fn express_rules() -> Invariants {
    // The base list is acyclic: a `next` is never an earlier node.
    Invariants::none().with(rule(Rule::not_null("this.header"))).with(rule(Rule::expand_only("**.next")))
}

fn plate_rules() -> Invariants {
    // Stacks of plates and of cells: `below` is never an earlier object.
    Invariants::none().with(rule(Rule::expand_only("**.below")))
}

fn expr_rules() -> Invariants {
    // An expression is a tree: operands are never shared.
    Invariants::none().with(rule(Rule::expand_only("**.left"))).with(rule(Rule::expand_only("**.right")))
}

fn no_rules() -> Invariants {
    Invariants::none()
}

const SUBJECTS: &[Subject] = &[
    Subject {
        class: "sushi/Sample",
        name: "sample",
        desc: "(Lsushi/DList;Ljava/lang/Object;)I",
        rules: dlist_rules,
    },
    Subject { class: "sushi/ParentTree", name: "contains", desc: "(I)Z", rules: tree_rules },
    Subject { class: "sushi/LinkedHeap", name: "peek", desc: "()I", rules: tree_rules },
    Subject { class: "sushi/LinkedHeap", name: "levels", desc: "()I", rules: tree_rules },
    Subject { class: "sushi/ExpressList", name: "contains", desc: "(I)Z", rules: express_rules },
    Subject { class: "sushi/PlateStack", name: "pop", desc: "()Ljava/lang/Object;", rules: plate_rules },
    Subject { class: "sushi/RingBuffer", name: "take", desc: "()Ljava/lang/Object;", rules: no_rules },
    Subject { class: "sushi/Expr", name: "eval", desc: "()I", rules: expr_rules },
];

fn with_rep_ok(inv: Invariants) -> Invariants {
    let r = Invariants::rep_ok();
    Invariants { rep_ok: r.rep_ok, rep_ok_paths: r.rep_ok_paths, ..inv }
}

fn conditions(e: &Exploration) -> BTreeSet<String> {
    e.paths
        .iter()
        .map(|p| p.condition.clauses.iter().map(clause_text).collect::<Vec<_>>().join(" & "))
        .collect()
}

/// Bounds small enough for every exploration below to finish (none is truncated).
fn bounds() -> ExploreConfig {
    ExploreConfig {
        max_paths: 3_000,
        heap_scope: 3,
        max_branch_depth: 20,
        max_unroll: 6,
        ..ExploreConfig::standard()
    }
}

#[test]
fn fewer_paths_and_every_one_found_without() {
    let db = db();
    let plan = plan(&db);
    let mut c = Concolic::new(&db, &plan, SymConfig::STANDARD);
    let base = bounds();
    let mut out = String::new();
    let mut smaller = BTreeSet::new();
    for s in SUBJECTS {
        let off = c.explore(s.class, s.name, s.desc, &base).expect("the method exists");
        assert!(!off.stats.truncated, "{}.{}", s.class, s.name);
        let all = conditions(&off);
        let mut line = format!(
            "{}.{}{}: {} paths",
            s.class.trim_start_matches("sushi/"),
            s.name,
            s.desc,
            off.paths.len()
        );
        let configs =
            [("rules", (s.rules)()), ("repOk", Invariants::rep_ok()), ("both", with_rep_ok((s.rules)()))];
        for (label, inv) in configs {
            let cfg = ExploreConfig { invariants: inv, ..base.clone() };
            let on = c.explore(s.class, s.name, s.desc, &cfg).expect("the method exists");
            let extra: Vec<_> = conditions(&on).difference(&all).cloned().collect();
            assert!(extra.is_empty(), "{}.{} ({label}): {extra:#?}", s.class, s.name);
            let st = &on.stats;
            line.push_str(&format!(
                "; {label} {} (rules -{} alternatives -{} paths, repOk -{} paths, {} checks, {} open)",
                on.paths.len(),
                st.rule_pruned_alternatives,
                st.rule_pruned_paths,
                st.rep_ok_pruned,
                st.rep_ok_checks,
                st.rep_ok_inconclusive,
            ));
            if label == "both" && on.paths.len() < off.paths.len() {
                smaller.insert(s.class);
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
    eprint!("{out}");
    expect_file!["../test_data/invariants.figures.txt"].assert_eq(&out);
    // Classes with a `repOk` whose paths the invariants cut.
    let with_rep_ok = [
        "sushi/ParentTree",
        "sushi/LinkedHeap",
        "sushi/ExpressList",
        "sushi/PlateStack",
        "sushi/RingBuffer",
        "sushi/Expr",
    ];
    let cut = with_rep_ok.iter().filter(|c| smaller.contains(*c)).count();
    assert!(cut >= 4, "{smaller:?}");
}

/// Figure 3's bounds (N = 15, `explore.rs`) with the generic invariants of the doubly linked list:
/// no header, link or back link is null, a back link is the node it came from, and no node has
/// two predecessors; Figure 3's path condition is still explored, unchanged.
#[test]
fn sample_keeps_figure_3_and_loses_the_spurious_shapes() {
    let db = db();
    let plan = plan(&db);
    let mut c = Concolic::new(&db, &plan, SymConfig::STANDARD);
    let cfg = ExploreConfig {
        max_paths: 100_000,
        heap_scope: 16,
        max_lazy_inits: 19,
        invariants: dlist_rules(),
        ..ExploreConfig::standard()
    };
    let e = c.explore("sushi/Sample", "sample", "(Lsushi/DList;Ljava/lang/Object;)I", &cfg).expect("exists");
    assert!(!e.stats.truncated);
    let closing = format!("p0.header{} = p0.header.previous", ".next".repeat(15));
    let figure_3 = e
        .paths
        .iter()
        .find(|p| {
            let has = |text: &str| p.condition.clauses.iter().any(|c| clause_text(c) == text);
            has(&closing) && has("fresh(p1) java.lang.Object")
        })
        .expect("Figure 3's path is explored");
    assert_eq!(figure_3.end, PathEnd::Return("1".into()));
    assert_eq!(figure_3.condition.clauses.len(), 20);
    for p in &e.paths {
        for cl in &p.condition.clauses {
            let t = clause_text(cl);
            // The parameters and the elements may be null; no header or link is.
            let link = [".header = null", ".next = null", ".previous = null"];
            assert!(!link.iter().any(|l| t.ends_with(l)), "{t}");
            // A node reached by a `next` (`previous`) link has its one predecessor (successor).
            if let Some((l, r)) = t.split_once(" = ") {
                assert!(!(l.ends_with(".next") && r.ends_with(".next")), "{t}");
                assert!(!(l.ends_with(".previous") && r.ends_with(".previous")), "{t}");
                if l.ends_with(".next.previous") {
                    assert_eq!(r, l.trim_end_matches(".next.previous"), "{t}");
                }
            }
        }
    }
    expect![[r#"
        1332 paths {"bound": 6, "exception": 8, "return": 1318}, rules removed 975 alternatives
    "#]]
    .assert_eq(&format!(
        "{} paths {:?}, rules removed {} alternatives\n",
        e.paths.len(),
        e.stats.ends,
        e.stats.rule_pruned_alternatives
    ));
}

#[test]
fn invariants_explore_deterministically() {
    let db = db();
    let plan = plan(&db);
    let mut c = Concolic::new(&db, &plan, SymConfig::STANDARD);
    for s in
        SUBJECTS.iter().filter(|s| ["sushi/Sample", "sushi/ExpressList", "sushi/Expr"].contains(&s.class))
    {
        let cfg = ExploreConfig { invariants: with_rep_ok((s.rules)()), ..bounds() };
        let a = c.explore(s.class, s.name, s.desc, &cfg).expect("exists");
        let b = c.explore(s.class, s.name, s.desc, &cfg).expect("exists");
        assert_eq!(a.text(), b.text(), "{}", s.class);
        assert_eq!(a, b, "{}", s.class);
    }
}

/// The pattern syntax: what parses, what a pattern matches, and the errors.
#[test]
fn patterns_and_rules() {
    let path = |root: Root, fields: &[&str]| AccessPath {
        root,
        steps: fields.iter().map(|f| Step::Field { class: "sushi.X".into(), name: (*f).into() }).collect(),
    };
    let cases: &[(&str, AccessPath, bool)] = &[
        ("**.header", path(Root::Param(0), &["header"]), true),
        ("**.header", path(Root::This, &["header", "next"]), false),
        ("**.next.previous", path(Root::This, &["header", "next", "previous"]), true),
        ("**.next.previous", path(Root::This, &["next"]), false),
        ("this.root", path(Root::This, &["root"]), true),
        ("this.root", path(Root::Param(0), &["root"]), false),
        ("this.*.left", path(Root::This, &["root", "left"]), true),
        ("this.*.left", path(Root::This, &["root", "left", "left"]), false),
        ("p1", path(Root::Param(1), &[]), true),
        ("**", path(Root::This, &["a", "b"]), true),
    ];
    for (text, p, want) in cases {
        let pat = Pattern::parse(text).expect("parses");
        assert_eq!(pat.matches(p), *want, "{text} on {}", symbolic::path_text(p));
    }
    let errors = [
        Pattern::parse("").map(|_| ()),
        Pattern::parse("root.left").map(|_| ()),
        Pattern::parse("this..left").map(|_| ()),
        Pattern::parse("this.**.left").map(|_| ()),
        Rule::alias_only("**.next.previous", "this").map(|_| ()),
        Rule::alias_only("**.next.previous", "**.previous").map(|_| ()),
    ];
    expect![[r#"
        empty segment in pattern ""
        pattern "root.left" must start with `**`, `this` or `p<k>`
        empty segment in pattern "this..left"
        `**` only as the first segment of "this.**.left"
        alias target "this" is not a prefix of "**.next.previous"
        alias target "**.previous" is not a prefix of "**.next.previous"
    "#]]
    .assert_eq(
        &errors.iter().map(|e| format!("{}\n", e.as_ref().expect_err("an error"))).collect::<String>(),
    );
    let rules = dlist_rules().rules.iter().map(|r| format!("{r}\n")).collect::<String>();
    expect![[r#"
        not_null(**.header)
        not_null(**.next)
        not_null(**.previous)
        alias_only(**.next.previous, **)
        alias_only(**.previous.next, **)
        alias_targets(**.next, **.header | **.previous)
        alias_targets(**.previous, **.header | **.next)
    "#]]
    .assert_eq(&rules);
    // The command line's form (`--sushi-rule`) is the displayed one: every rule reads back.
    for r in dlist_rules().rules.iter().chain(&tree_rules().rules) {
        assert_eq!(Rule::parse(&r.to_string()).as_ref(), Ok(r), "{r}");
    }
    assert_eq!(Rule::parse(" expand_only( **.left ) "), Rule::expand_only("**.left"));
    let bad = [
        "expand_only(**.left, **)",
        "alias_only(**.next)",
        "never(**.next)",
        "not_null **.next",
        "not_null(p)",
    ];
    expect![[r#"
        rule "expand_only(**.left, **)" must be not_null(P), null_only(P), expand_only(P), alias_only(P, T) or alias_targets(P, T | T ..)
        rule "alias_only(**.next)" must be not_null(P), null_only(P), expand_only(P), alias_only(P, T) or alias_targets(P, T | T ..)
        rule "never(**.next)" must be not_null(P), null_only(P), expand_only(P), alias_only(P, T) or alias_targets(P, T | T ..)
        rule "not_null **.next" must be not_null(P), null_only(P), expand_only(P), alias_only(P, T) or alias_targets(P, T | T ..)
        pattern "p" must start with `**`, `this` or `p<k>`
    "#]]
    .assert_eq(&bad.iter().map(|r| format!("{}\n", Rule::parse(r).expect_err("an error"))).collect::<String>());
}

/// A per-class heap scope bounds the fresh objects of its class alone: two list entries, while
/// the other classes keep the exploration's scope.
#[test]
fn per_class_heap_scope() {
    let db = db();
    let plan = plan(&db);
    let mut c = Concolic::new(&db, &plan, SymConfig::STANDARD);
    let cfg = ExploreConfig { invariants: dlist_rules().scope("sushi.DList$Entry", 2), ..bounds() };
    let e = c.explore("sushi/Sample", "sample", "(Lsushi/DList;Ljava/lang/Object;)I", &cfg).expect("exists");
    let entries = |p: &symbolic::ExploredPath| {
        p.condition.clauses.iter().filter(|c| clause_text(c).ends_with("sushi.DList$Entry")).count()
    };
    assert!(e.paths.iter().all(|p| entries(p) <= 2));
    assert!(e.paths.iter().any(|p| entries(p) == 2));
    let wide = ExploreConfig { invariants: dlist_rules(), ..bounds() };
    let e = c.explore("sushi/Sample", "sample", "(Lsushi/DList;Ljava/lang/Object;)I", &wide).expect("exists");
    assert!(e.paths.iter().any(|p| entries(p) == 3));
}
