//! Contract violations in the pipeline (docs/contracts.md): `contracts::find` on the minimised
//! suite within the post-processing budget, then the violation tests rendered as
//! `<Simple>ViolationTest` and run in fresh JVMs, where each must fail, the same way in every run
//! (the same line, the same exception), or it is dropped. The regression test files are neither
//! read nor changed here.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use contracts::{ContractConfig, Violation};
use junit::{RenderConfig, Rendered};
use testcase::TestCase;

use crate::pipeline::{ProblemRunner, Verifier};
use crate::{EngineError, JvmProblem};

/// Fresh-JVM runs a violation test must fail in.
pub(crate) const VIOLATION_RUNS: usize = 3;

/// The simple name of the violation test class of `cut`: `Stack` -> `StackViolationTest`.
pub fn violation_class_name(cut: &str) -> String {
    let simple = cut.rsplit_once('.').map_or(cut, |(_, s)| s);
    format!("{}ViolationTest", simple.replace('$', "_"))
}

/// The violations the minimised suite's objects and calls show, both probe runs agreeing, and the
/// time it took; what the budget cut short or the runner's failure is logged, never a reason to
/// lose the class.
pub(crate) fn find(
    problem: &mut JvmProblem,
    suite: &[TestCase],
    db: &programdb::ProgramDb,
    cut: &str,
    deadline: Option<Instant>,
    log: &mut Vec<String>,
) -> (Vec<Violation>, Duration) {
    let started = Instant::now();
    let mut runner = ProblemRunner { problem, deadline };
    let found = match contracts::find(&mut runner, suite, db, &ContractConfig::new(cut)) {
        Ok(found) => {
            if found.stopped_early {
                log.push(format!(
                    "post-processing budget: contract checks stopped early ({} probes built)",
                    found.probes
                ));
            }
            let mut violations = found.violations;
            // Their class restores the system properties too when one of them changes them.
            let tests = violations.iter_mut().map(|v| &mut v.test);
            if let Err(e) = crate::pipeline::mark_property_changes(&mut *runner.problem, tests) {
                log.push(format!("violation tests not run for their system properties: {e}"));
            }
            violations
        }
        Err(e) => {
            log.push(format!("contract checks failed, no violations reported: {e}"));
            Vec::new()
        }
    };
    (found, started.elapsed())
}

/// The violations whose tests failed the same way in every fresh-JVM run ([`verify_file`]), their
/// file and the time it took; none when the post-processing budget ended at `end` (logged).
pub(crate) fn verify(
    verifier: &mut dyn Verifier,
    cut: &str,
    violations: Vec<Violation>,
    render_config: &dyn Fn(String) -> RenderConfig,
    end: Option<Instant>,
    log: &mut Vec<String>,
) -> Result<(Vec<Violation>, Option<Rendered>, Duration), EngineError> {
    let started = Instant::now();
    if violations.is_empty() {
        return Ok((violations, None, Duration::ZERO));
    }
    if end.is_some_and(|end| started >= end) {
        log.push(format!(
            "post-processing budget: {} contract violations not verified, not reported",
            violations.len()
        ));
        return Ok((Vec::new(), None, Duration::ZERO));
    }
    let (kept, file) = verify_file(verifier, cut, violations, render_config, log)?;
    Ok((kept, file, started.elapsed()))
}

/// Renders the violations' tests as one class, compiles it and runs it [`VIOLATION_RUNS`] times;
/// keeps the violations whose test failed in every run at the same line with the same exception
/// and returns them with the file (rendered again without the others). A test that does not
/// compile, or passes once, or fails differently, is dropped and logged.
fn verify_file(
    verifier: &mut dyn Verifier,
    cut: &str,
    violations: Vec<Violation>,
    render_config: &dyn Fn(String) -> RenderConfig,
    log: &mut Vec<String>,
) -> Result<(Vec<Violation>, Option<Rendered>), EngineError> {
    let mut config = render_config(violation_class_name(cut));
    config.failing_by_design = true;
    let mut kept = violations;
    let render = |kept: &[Violation]| {
        let tests: Vec<_> = kept.iter().map(|v| v.test.clone()).collect();
        junit::render(cut, &tests, &config)
    };
    // Compile until every test compiles: each round drops the tests an error points at.
    let file = loop {
        if kept.is_empty() {
            return Ok((kept, None));
        }
        let file = render(&kept)?;
        let errors = verifier.compile(std::slice::from_ref(&file))?;
        if errors.is_empty() {
            break file;
        }
        let before = kept.len();
        let bad: Vec<String> = errors
            .iter()
            .filter_map(|e| e.line)
            .filter_map(|l| file.tests.iter().find(|t| t.first_line <= l && l <= t.last_line))
            .map(|t| t.method.clone())
            .collect();
        for e in &errors {
            log.push(format!("{cut}: violation test does not compile (renderer bug): {}", e.message));
        }
        kept.retain(|v| !bad.iter().any(|b| Some(b.as_str()) == v.test.name.as_deref()));
        if kept.len() == before {
            // An error outside every test: nothing of this file can be trusted.
            kept.clear();
        }
    };
    let failures = verifier.run(std::slice::from_ref(&file), VIOLATION_RUNS)?;
    let runs = verifier.runs_done().unwrap_or(VIOLATION_RUNS);
    let mut ways: BTreeMap<&str, Vec<(Option<u32>, &str)>> = BTreeMap::new();
    for f in &failures {
        let exception = f.message.split(':').next().unwrap_or_default();
        ways.entry(f.method.as_str()).or_default().push((f.line, exception));
    }
    let same_way = |name: &str| {
        ways.get(name)
            .is_some_and(|w| w.len() == runs && runs > 0 && w.iter().all(|x| *x == w[0]) && w[0].0.is_some())
    };
    let before = kept.len();
    kept.retain(|v| {
        let ok = same_way(v.test.name.as_deref().unwrap_or_default());
        if !ok {
            log.push(format!(
                "{cut}: violation dropped: its test did not fail the same way in {runs} fresh JVMs: {} ({})",
                v.kind.name(),
                v.message
            ));
        }
        ok
    });
    if kept.is_empty() {
        return Ok((kept, None));
    }
    let file = if kept.len() == before { file } else { render(&kept)? };
    Ok((kept, Some(file)))
}
