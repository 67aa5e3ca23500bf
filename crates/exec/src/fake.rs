//! A scripted executor for unit tests of the search: results come from a closure, and every test it
//! was asked to run is recorded, so tests can assert how often and in which order the search executed.

use crate::{ExecError, ExecResult, Executor, TestCase};

type Script = Box<dyn FnMut(&TestCase) -> ExecResult>;

/// An [`Executor`] whose results are computed by a closure instead of a JVM.
pub struct FakeExecutor {
    script: Script,
    executed: Vec<TestCase>,
}

impl std::fmt::Debug for FakeExecutor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeExecutor").field("executed", &self.executed.len()).finish()
    }
}

impl FakeExecutor {
    pub fn new(script: impl FnMut(&TestCase) -> ExecResult + 'static) -> FakeExecutor {
        FakeExecutor { script: Box::new(script), executed: Vec::new() }
    }

    /// Every test executed so far, in order.
    pub fn executed(&self) -> &[TestCase] {
        &self.executed
    }
}

impl Executor for FakeExecutor {
    fn execute(&mut self, tests: &[TestCase]) -> Result<Vec<ExecResult>, ExecError> {
        let mut out = Vec::with_capacity(tests.len());
        for t in tests {
            out.push((self.script)(t));
            self.executed.push(t.clone());
        }
        Ok(out)
    }
}
