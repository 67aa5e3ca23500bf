//! EvoSuite's top-level method criteria (digest 002 §1.2, TMC `METHOD` and NTMC
//! `METHODNOEXCEPTION`): a method counts only when a test statement calls it directly. The trace
//! cannot tell a direct call from a nested one, so these read the test's statements and outcomes.
//!
//! TMC: covered by a direct call (method or constructor statement) executed at or before the
//! first statement that threw; the throwing call itself counts when the exception came from
//! inside the SUT (`from_sut`; a call that failed before entering the method, e.g. on a null
//! receiver, does not). NTMC: covered by a direct call that returned normally. Calls are matched
//! on the statement's own class, name and descriptor: a call through a subclass of the declaring
//! class does not count (FIXME: resolve inherited methods once the test cluster knows the
//! hierarchy).

use jvm_model::ClassName;
use std::collections::BTreeSet;

use goals::GoalId;
use protocol::{Outcome, Statement};

use crate::model::GoalModel;

/// Goals covered by direct calls: `MethodEntry` goals (TMC) and `MethodNormalExit` goals (NTMC).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DirectCalls {
    pub called: BTreeSet<GoalId>,
    pub returned: BTreeSet<GoalId>,
}

/// The method goals one test covers by direct calls (see the module comment).
pub fn direct_calls(model: &GoalModel, statements: &[Statement], outcomes: &[Outcome]) -> DirectCalls {
    let mut res = DirectCalls::default();
    for (st, out) in statements.iter().zip(outcomes) {
        let (class, name, descriptor) = match st {
            Statement::Method { class, name, descriptor, .. } => (class, name.as_str(), descriptor),
            Statement::Constructor { class, descriptor, .. } => (class, "<init>", descriptor),
            _ => {
                if matches!(out, Outcome::Value(_)) {
                    continue;
                }
                break;
            }
        };
        let (entry, exit) = model.method_goals(ClassName::from_binary(class).internal(), name, descriptor);
        match out {
            Outcome::Value(_) => {
                res.called.extend(entry);
                res.returned.extend(exit);
            }
            Outcome::Threw { from_sut: true, .. } => {
                res.called.extend(entry);
                break;
            }
            _ => break,
        }
    }
    res
}
