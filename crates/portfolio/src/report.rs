//! The portfolio's part of report.json: per technique whether its gate was open and why, what the
//! allocation gave it (seconds under a time budget, evaluation equivalents under an evaluation
//! budget), the goals it earned and how often it was called or held back.
//!
//! Not here: writing the file (the CLI writes report.json), other figures of the techniques
//! (each keeps its own stats).

use serde::Serialize;

use crate::Arm;
use crate::allocation::Measure;
use crate::gates::Gate;
use crate::ledger::Ledger;

/// What an arm was given, in the run's measure.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Given {
    Seconds(f64),
    Work(u64),
}

/// One technique's line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ArmReport {
    pub technique: &'static str,
    pub gate: &'static str,
    pub reason: String,
    /// `None` for a technique that is not a hook (it gets no share) or whose gate closed.
    pub given: Option<Given>,
    pub earned_goals: u64,
    pub calls: u64,
    pub held: u64,
}

/// The lines of every arm with a gate or an account, in `Arm::ALL` order.
pub fn report(gates: &[Gate], ledger: &Ledger) -> Vec<ArmReport> {
    let measure = ledger.measure();
    Arm::ALL
        .iter()
        .filter_map(|&arm| {
            let gate = gates.iter().find(|g| g.arm == arm);
            let account = ledger.account(arm);
            if gate.is_none() && account.is_none() {
                return None;
            }
            let open = gate.is_none_or(|g| g.open);
            Some(ArmReport {
                technique: arm.name(),
                gate: if open { "open" } else { "closed" },
                reason: gate.map(|g| g.reason.clone()).unwrap_or_default(),
                given: account.map(|a| match measure {
                    Measure::Time => Given::Seconds(a.given(measure)),
                    Measure::Work => Given::Work(a.work),
                }),
                earned_goals: account.map_or(0, |a| a.earned),
                calls: account.map_or(0, |a| a.calls),
                held: account.map_or(0, |a| a.held),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_closed_gate_and_an_account_serialise() {
        let gates = vec![
            Gate { arm: Arm::Dse, open: true, reason: "Foo.bar(I)V at 3: IF_ICMPGE".into() },
            Gate { arm: Arm::Sushi, open: false, reason: "no public method has a heap input".into() },
        ];
        let decay = crate::Decay { gamma: 0.5, period: 500.0 };
        let mut ledger = Ledger::new(&[Arm::Dse], Measure::Work, decay);
        ledger.charge(Arm::Dse, Duration::from_millis(1_250), 30, 40.0);
        ledger.credit(Arm::Dse, 2, 40.0);
        let json = serde_json::to_string(&report(&gates, &ledger)).expect("serialises");
        expect_test::expect![[r#"[{"technique":"sushi","gate":"closed","reason":"no public method has a heap input","given":null,"earned_goals":0,"calls":0,"held":0},{"technique":"dse","gate":"open","reason":"Foo.bar(I)V at 3: IF_ICMPGE","given":{"work":30},"earned_goals":2,"calls":1,"held":0}]"#]]
        .assert_eq(&json);
        let mut ledger = Ledger::new(&[Arm::Dse], Measure::Time, decay);
        ledger.charge(Arm::Dse, Duration::from_millis(1_250), 30, 4.0);
        let json = serde_json::to_string(&report(&gates, &ledger)).expect("serialises");
        assert!(json.contains(r#""given":{"seconds":1.25}"#), "{json}");
    }
}
