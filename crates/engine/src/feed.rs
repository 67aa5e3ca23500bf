//! Feeding the dynamic value pool from traces: the values the code under test compared or
//! computed with become constants the test factory may draw, as EvoSuite's dynamic constant pool
//! does. Pure: a plan and a trace in, values added to the pool; nothing here scores goals.

use goals::{ProbeKind, ProbePlan};
use protocol::Trace;
use testcase::DynamicPool;

/// Feeds `pool` with the int and long values the code compared or computed with (operand samples
/// and switch keys) and the strings it compared, in trace order.
pub(crate) fn feed_pool(plan: &ProbePlan, trace: &Trace, pool: &mut DynamicPool) {
    for (probe, samples) in &trace.operands {
        if probe.0 as usize >= plan.n_probes() {
            continue;
        }
        let kind = plan.probe(*probe).kind;
        for &(a, b) in samples {
            match kind {
                ProbeKind::BranchInt | ProbeKind::OperandsInt => {
                    pool.add_int(a as i64 as i32);
                    pool.add_int(b as i64 as i32);
                }
                ProbeKind::BranchZero => pool.add_int(a as i64 as i32),
                ProbeKind::CmpLong | ProbeKind::OperandsLong => {
                    pool.add_long(a as i64);
                    pool.add_long(b as i64);
                }
                ProbeKind::OperandsLongShift => {
                    pool.add_long(a as i64);
                    pool.add_int(b as i64 as i32);
                }
                // `Value*` samples (UOI) are every loaded number, not values compared against:
                // they would flood the pool with loop counters.
                _ => {}
            }
        }
    }
    for (_, keys) in &trace.switches {
        for &k in keys {
            pool.add_int(k);
        }
    }
    // Operands of the SUT's string comparisons (protocol v2), as EvoSuite's `StringHelper`
    // feeds its dynamic constant pool, each with a hash twin (`testcase::pool::hash_twin`).
    for s in &trace.strings {
        pool.add_string(s);
        if let Some(twin) = testcase::pool::hash_twin(s) {
            pool.add_string(&twin);
        }
    }
}
