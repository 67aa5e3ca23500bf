//! Smart selection per class on the fixtures of `fixtures/java/selection`:
//! a snapshot of the split of every class (`test_data/<Class>.sel.txt`: the criteria's split, the
//! counts, every guiding and every deferred goal), and explicit checks of what the digest's
//! subjects and our own dilution subjects must give, each derived by hand from the source and
//! `javap -c -l` in its comment.

use std::path::{Path, PathBuf};

use classfile::ClassFile;
use expect_test::expect_file;
use goals::{Criterion, Goal, PlanOptions, ProbePlan};
use selection::{ClassBlocks, LineRule, Options, Selection};

fn class_file(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/classes/selection/selection")
        .join(format!("{name}.class"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The plan of one fixture class (every probe family, as `generate` plans the eight criteria)
/// and its selection over the eight criteria under `opts`.
fn select(name: &str, opts: &Options) -> (ProbePlan, Selection) {
    let bytes = class_file(name);
    let file = ClassFile::parse(&bytes).expect("class parses");
    let mut plan = ProbePlan::new();
    let id = plan.add_class(&file, &PlanOptions::all()).expect("plan");
    let blocks = [ClassBlocks::of_class(id, &file)];
    let sel = selection::select(&plan, &blocks, &Criterion::DEFAULT, opts);
    (plan, sel)
}

fn check(name: &str) {
    let (plan, sel) = select(name, &Options::default());
    let path: PathBuf =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data").join(format!("{name}.sel.txt"));
    expect_file![path].assert_eq(&sel.dump(&plan));
}

#[test]
fn invoice_calculator() {
    check("InvoiceCalculator");
}

#[test]
fn record_parser() {
    check("RecordParser");
}

#[test]
fn token_bucket() {
    check("TokenBucket");
}

#[test]
fn color_mixer() {
    check("ColorMixer");
}

#[test]
fn checksum() {
    check("Checksum");
}

#[test]
fn statistics() {
    check("Statistics");
}

#[test]
fn tariff() {
    check("Tariff");
}

#[test]
fn payroll() {
    check("Payroll");
}

/// The source lines of the guiding line goals.
fn guiding_lines(plan: &ProbePlan, sel: &Selection) -> Vec<u16> {
    sel.guiding()
        .iter()
        .filter_map(|&g| match *plan.goal(g) {
            Goal::Line { line, .. } => Some(line),
            _ => None,
        })
        .collect()
}

/// The guiding goals on source line `line`, as `goals::goal_text` without the probe id.
fn guiding_at(plan: &ProbePlan, sel: &Selection, line: u16) -> Vec<String> {
    sel.guiding()
        .iter()
        .filter(|&&g| plan.goal_location(g).1 == Some(line))
        .map(|&g| {
            let text = goals::goal_text(plan.goal(g));
            // "mutant p44 cond->le" -> "mutant cond->le": probe ids are the snapshot's business.
            text.split(' ').filter(|w| !w.starts_with('p') || w.len() < 2).collect::<Vec<_>>().join(" ")
        })
        .collect()
}

/// Digest §8.1: `lineAmount` (source lines 25–35 there, 27–37 here after the package line) and
/// `shippingCost` (39–48, here 41–50) are one block each, and only their `return` lines are kept;
/// every other block is shorter than 8 lines. The 9 conditional jumps give 18 branch goals, all
/// deferred (represented by context branches), and every method-no-exception goal guides.
#[test]
fn invoice_calculator_keeps_two_return_lines() {
    let (plan, sel) = select("InvoiceCalculator", &Options::default());
    assert_eq!(guiding_lines(&plan, &sel), [37, 50]);
    let counts = sel.counts(&plan);
    let of = |c: Criterion| counts.iter().find(|(k, _, _)| *k == c).map(|&(_, g, d)| (g, d)).unwrap();
    assert_eq!(of(Criterion::Branch), (0, 18));
    assert_eq!(of(Criterion::Method).0, 0);
    assert_eq!(of(Criterion::MethodNoException).1, 0);
    // Dilution: fewer than half of the mutants guide.
    let (g, d) = of(Criterion::WeakMutation);
    assert!(g * 2 < g + d, "{g} of {} mutants guide", g + d);
}

/// Digest §8.2: `parseAndSum`'s block after the guards spans source lines 16–26 there (18–28
/// here), 11 lines, so `return sum;` (28) is the one line goal under both rules; `sign` and the
/// getters contribute none. With a threshold of 12 it is gone too.
#[test]
fn record_parser_keeps_the_last_line_of_parse_and_sum() {
    let (plan, sel) = select("RecordParser", &Options::default());
    assert_eq!(guiding_lines(&plan, &sel), [28]);
    let span = Options { line_rule: LineRule::Span, ..Options::default() };
    assert_eq!(guiding_lines(&plan, &select("RecordParser", &span).1), [28]);
    let high = Options { line_threshold: 12, ..Options::default() };
    assert_eq!(guiding_lines(&plan, &select("RecordParser", &high).1), [] as [u16; 0]);
}

/// Digest §8.3: no block of 8 lines. `tokens >= cost` (line 35) compiles to `if_icmplt`, whose
/// subsuming ROR mutants are `<=` (source `>`: killed only when tokens == cost) and `!=` (killed
/// when tokens > cost); with the artifact's one mutant per site only `<=`. `tokens - cost` (line
/// 36) keeps every AOR mutant but the first operand (`a - b` and `a` differ exactly when `b != 0`,
/// `a + b` only when `b` is neither 0 nor `MIN_VALUE`, so `+` subsumes it). The two jumps of
/// `take(cost) && take(cost)` (line 31) test booleans: their kept mutants are `<` and `>=`, which
/// an int's table would give as `>=` and `<=` (the latter never killed on 0 and 1).
#[test]
fn token_bucket_keeps_the_boundary_mutant() {
    let (plan, sel) = select("TokenBucket", &Options::default());
    assert_eq!(guiding_lines(&plan, &sel), [] as [u16; 0]);
    assert_eq!(guiding_at(&plan, &sel, 35), ["mutant cond->ne", "mutant cond->le"]);
    assert_eq!(
        guiding_at(&plan, &sel, 36),
        ["mutant op->add", "mutant op->mul", "mutant op->div", "mutant op->rem", "mutant second-operand"]
    );
    assert_eq!(guiding_at(&plan, &sel, 31), ["mutant cond->lt", "mutant cond->ge"].repeat(2));
    let one = Options { mutants_per_site: Some(1), ..Options::default() };
    let (plan, sel) = select("TokenBucket", &one);
    assert_eq!(guiding_at(&plan, &sel, 35), ["mutant cond->le"]);
    assert_eq!(guiding_at(&plan, &sel, 36), ["mutant op->rem"]);
}

/// Tariff: `price` is a block of exactly 8 lines (13–20, span 7) and `discount` one of 9 (24–32,
/// span 8). The paper's count keeps both last lines, the artifact's span only `discount`'s.
#[test]
fn tariff_line_rules_differ_at_the_boundary() {
    let (plan, sel) = select("Tariff", &Options::default());
    assert_eq!(guiding_lines(&plan, &sel), [20, 32]);
    let span = Options { line_rule: LineRule::Span, ..Options::default() };
    assert_eq!(guiding_lines(&plan, &select("Tariff", &span).1), [32]);
}

/// Payroll: `name == null` (line 14) is an `ifnonnull`, whose one mutant is infected whenever
/// reached (equal to its line): deferred. `netPay`'s block is cut by the ternary on line 28, so
/// no block reaches 8 lines and no line guides.
#[test]
fn payroll_defers_the_null_check_mutant() {
    let (plan, sel) = select("Payroll", &Options::default());
    assert_eq!(guiding_at(&plan, &sel, 14), [] as [String; 0]);
    assert_eq!(guiding_lines(&plan, &sel), [] as [u16; 0]);
}

/// Over every fixture: guiding and deferred goals partition the goals of the eight criteria; no
/// UOI, RC or reference-compare mutant guides (the first two filters); every branch and method
/// goal is deferred and every goal of a representative guides.
#[test]
fn partition_and_filters_hold_on_every_fixture() {
    let names = [
        "InvoiceCalculator",
        "RecordParser",
        "TokenBucket",
        "ColorMixer",
        "Checksum",
        "Statistics",
        "Tariff",
        "Payroll",
    ];
    for name in names {
        let (plan, sel) = select(name, &Options::default());
        let mut all: Vec<_> = sel.guiding().iter().chain(sel.deferred()).copied().collect();
        all.sort();
        assert_eq!(all.len(), plan.goals().len(), "{name}");
        all.dedup();
        assert_eq!(all.len(), plan.goals().len(), "{name}: a goal is both guiding and deferred");
        for &g in sel.guiding() {
            let goal = plan.goal(g);
            if let Goal::WeakMutation { probe, mutant } = *goal {
                let op = selection::operator_of(&plan, probe, mutant);
                assert!(
                    matches!(
                        op,
                        selection::Operator::Aor | selection::Operator::Bor | selection::Operator::Ror
                    ),
                    "{name}: {op:?} mutant guides"
                );
            }
            assert!(!matches!(goal.criterion(), Criterion::Branch | Criterion::Method), "{name}");
        }
        for &g in sel.deferred() {
            let c = plan.goal(g).criterion();
            assert!(!sel.representatives.contains(&c), "{name}: a {c:?} goal is deferred");
        }
    }
}

/// The ablations as options: without subsets (SSWS) only the representatives' goals guide; with
/// branch forced (DynaMOSA) every branch goal guides as well.
#[test]
fn ablation_options() {
    let ssws = Options { subsets: false, ..Options::default() };
    let (plan, sel) = select("InvoiceCalculator", &ssws);
    assert!(sel.guiding().iter().all(|&g| sel.representatives.contains(&plan.goal(g).criterion())));
    let dyna = Options { always_guide: vec![Criterion::Branch], ..Options::default() };
    let (plan, sel) = select("InvoiceCalculator", &dyna);
    let branches = plan.goals().iter().filter(|g| g.criterion() == Criterion::Branch).count();
    let guiding = sel.guiding().iter().filter(|&&g| plan.goal(g).criterion() == Criterion::Branch).count();
    assert_eq!((branches, guiding), (18, 18));
    assert!(sel.guides_all(Criterion::Branch) && sel.guides_all(Criterion::ContextBranch));
    assert!(!sel.guides_all(Criterion::Line));
    // The empty table: every criterion its own representative, every goal guides (ORIG).
    let orig = Options { represents: "".parse().unwrap(), ..Options::default() };
    let (plan, sel) = select("InvoiceCalculator", &orig);
    assert_eq!((sel.guiding().len(), sel.deferred().len()), (plan.goals().len(), 0));
}

/// Whole suite's weights (§3.8, w = 0.1 × all / guiding) on `InvoiceCalculator`: lines 2 of 40
/// guide (w = 0.1 × 40 / 2 = 2), mutants 315 of 783 (w = 0.1 × 783 / 315); representatives and
/// branch (an empty subset: it does not guide at all) weigh 1; without `subset_weight` all weigh 1.
#[test]
fn whole_suite_weights() {
    let (plan, sel) = select("InvoiceCalculator", &Options::default());
    let counts = sel.counts(&plan);
    let w = |c| sel.weight(c, &counts);
    assert_eq!(w(Criterion::Line), 2.0);
    assert_eq!(w(Criterion::WeakMutation), 0.1 * 783.0 / 315.0);
    for c in [Criterion::ContextBranch, Criterion::Exception, Criterion::Output, Criterion::Branch] {
        assert_eq!(w(c), 1.0, "{c:?}");
    }
    let none = Options { subset_weight: None, ..Options::default() };
    let (plan, sel) = select("InvoiceCalculator", &none);
    let counts = sel.counts(&plan);
    assert!(Criterion::DEFAULT.iter().all(|&c| sel.weight(c, &counts) == 1.0));
}
