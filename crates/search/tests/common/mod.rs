//! A fake `Problem` over real test cases for `cluster.Overloads` (fixtures/java/cluster): goals
//! are properties of a test's statements, with distances so that search pressure matters, and a
//! small control dependence for DynaMOSA. Execution is modelled just enough for random search's
//! feedback: a call whose receiver or argument is a literal `null` throws, and statements after it
//! do not run.

#![allow(dead_code)]

use search::{Evaluation, GoalIdx, Problem, ProblemError};
use testcase::pool::DynamicPool;
use testcase::{ClusterConfig, PrimValue, Statement, TestCase, TestCluster, VarId};

/// ν(x) = x / (x + 1), EvoSuite's normalisation.
fn nu(x: f64) -> f64 {
    x / (x + 1.0)
}

#[derive(Debug, Clone, PartialEq)]
pub enum Goal {
    /// The test calls (or reads/writes) this member: class, name, descriptor.
    Calls { class: String, name: String, descriptor: String },
    /// `add(int, int)` with first argument 42 (approach: a call of `add(II)I`).
    AddFirst42,
    /// `add(int, int)` with arguments 42 and -1000 (approach: first argument 42).
    AddBoth,
    /// `new Overloads(start)` with `start > 1500`.
    BigStart,
    /// Some call throws.
    Throws,
}

pub struct FakeProblem {
    pub goals: Vec<Goal>,
    roots: Vec<GoalIdx>,
    children: Vec<Vec<GoalIdx>>,
    /// Batches seen, with their sizes.
    pub batches: Vec<usize>,
}

pub fn overloads_cluster() -> TestCluster {
    let db =
        test_support::open_db(&[test_support::java_base_jmod(), test_support::fixture_classes("cluster")]);
    TestCluster::build_in(&db, "cluster.Overloads", &ClusterConfig::evosuite()).expect("cluster builds")
}

impl FakeProblem {
    /// The call goals of every CUT target, plus, if `hard`, the argument goals; and the exception
    /// goal. DynaMOSA: `AddFirst42` depends on calling `add(II)I`, `AddBoth` on `AddFirst42`,
    /// `BigStart` on calling `<init>(I)V`.
    pub fn new(cluster: &TestCluster, hard: bool) -> FakeProblem {
        let mut goals: Vec<Goal> = cluster
            .targets()
            .iter()
            .filter(|t| t.class == cluster.cut())
            .map(|t| Goal::Calls {
                class: t.class.clone(),
                name: t.name.clone(),
                descriptor: t.descriptor.clone(),
            })
            .collect();
        goals.dedup();
        goals.push(Goal::Throws);
        if hard {
            goals.extend([Goal::AddFirst42, Goal::AddBoth, Goal::BigStart]);
        }
        let idx = |g: &Goal| goals.iter().position(|x| x == g).map(GoalIdx::new);
        let call = |name: &str, desc: &str| Goal::Calls {
            class: "cluster.Overloads".into(),
            name: name.into(),
            descriptor: desc.into(),
        };
        let mut children = vec![Vec::new(); goals.len()];
        let mut dependent = vec![false; goals.len()];
        let mut edge = |parent: Option<GoalIdx>, child: Option<GoalIdx>| {
            if let (Some(p), Some(c)) = (parent, child) {
                children[p.index()].push(c);
                dependent[c.index()] = true;
            }
        };
        edge(idx(&call("add", "(II)I")), idx(&Goal::AddFirst42));
        edge(idx(&Goal::AddFirst42), idx(&Goal::AddBoth));
        edge(idx(&call("<init>", "(I)V")), idx(&Goal::BigStart));
        let roots = (0..goals.len()).filter(|&i| !dependent[i]).map(GoalIdx::new).collect();
        FakeProblem { goals, roots, children, batches: Vec::new() }
    }

    pub fn describe(&self) -> String {
        let mut s = String::new();
        for (i, g) in self.goals.iter().enumerate() {
            let deps: Vec<String> = self.children[i].iter().map(|c| c.to_string()).collect();
            s.push_str(&format!("g{i} {g:?} releases [{}]\n", deps.join(", ")));
        }
        s
    }
}

/// The int value of a variable, following copies, if it is a literal.
fn int_value(t: &TestCase, v: VarId) -> Option<i64> {
    match t.statements.get(v.index())? {
        Statement::Primitive(PrimValue::Int(x)) => Some(*x as i64),
        Statement::Copy { from, .. } if from.index() < v.index() => int_value(t, *from),
        _ => None,
    }
}

fn is_null(t: &TestCase, v: VarId) -> bool {
    matches!(t.statements.get(v.index()), Some(Statement::Null(_)))
}

/// The member a statement invokes: class, name, descriptor.
fn member(st: &Statement) -> Option<(&str, &str, &str)> {
    match st {
        Statement::Constructor { ctor, .. } => Some((&ctor.class, "<init>", &ctor.descriptor)),
        Statement::Method { method, .. } => Some((&method.class, &method.name, &method.descriptor)),
        Statement::FieldGet { field, .. } | Statement::FieldSet { field, .. } => {
            Some((&field.class, &field.name, &field.descriptor))
        }
        _ => None,
    }
}

pub fn evaluate_one(goals: &[Goal], t: &TestCase) -> Evaluation {
    // The first call with a null receiver or argument throws (a NullPointerException).
    let exception_at = t.statements.iter().position(|st| match st {
        Statement::Method { receiver, args, .. } => {
            receiver.is_some_and(|r| is_null(t, r)) || args.iter().any(|a| is_null(t, *a))
        }
        Statement::FieldGet { receiver: Some(r), .. } | Statement::FieldSet { receiver: Some(r), .. } => {
            is_null(t, *r)
        }
        _ => false,
    });
    let ran = &t.statements[..exception_at.map_or(t.len(), |e| e + 1)];
    let adds: Vec<(Option<i64>, Option<i64>)> = ran
        .iter()
        .filter_map(|st| match st {
            Statement::Method { method, args, .. }
                if method.name == "add" && method.descriptor == "(II)I" =>
            {
                Some((int_value(t, args[0]), int_value(t, args[1])))
            }
            _ => None,
        })
        .collect();
    let fitness = goals
        .iter()
        .map(|g| match g {
            Goal::Calls { class, name, descriptor } => {
                let hit = ran.iter().any(|st| member(st) == Some((class, name, descriptor)));
                if hit { 0.0 } else { 1.0 }
            }
            Goal::Throws => {
                if exception_at.is_some() {
                    0.0
                } else {
                    1.0
                }
            }
            Goal::AddFirst42 => {
                adds.iter().filter_map(|(a, _)| a.map(|a| nu((a - 42).abs() as f64))).fold(1.0, f64::min)
            }
            Goal::AddBoth => adds
                .iter()
                .filter_map(|(a, b)| match (a, b) {
                    (Some(42), Some(b)) => Some(nu((b + 1000).abs() as f64)),
                    (Some(a), _) => Some(1.0 + nu((a - 42).abs() as f64)),
                    _ => None,
                })
                .fold(2.0, f64::min),
            Goal::BigStart => ran
                .iter()
                .filter_map(|st| match st {
                    Statement::Constructor { ctor, args } if ctor.descriptor == "(I)V" => {
                        int_value(t, args[0]).map(|s| nu((1501 - s).max(0) as f64))
                    }
                    _ => None,
                })
                .fold(1.0, f64::min),
        })
        .collect();
    Evaluation { fitness, exception_at }
}

impl Problem for FakeProblem {
    fn n_goals(&self) -> usize {
        self.goals.len()
    }

    fn roots(&self) -> Vec<GoalIdx> {
        self.roots.clone()
    }

    fn released_by(&self, g: GoalIdx) -> &[GoalIdx] {
        self.children.get(g.index()).map_or(&[], Vec::as_slice)
    }

    fn evaluate(
        &mut self,
        tests: &[TestCase],
        dynamic: &mut DynamicPool,
    ) -> Result<Vec<Evaluation>, ProblemError> {
        self.batches.push(tests.len());
        let out: Vec<Evaluation> = tests.iter().map(|t| evaluate_one(&self.goals, t)).collect();
        // Like the probes, report the operands of comparisons that ran: `b == -1000` is only
        // compared once `a == 42` holds (the comparison is nested in AddFirst42's branch).
        if let Some(i) = self.goals.iter().position(|g| *g == Goal::AddFirst42)
            && out.iter().any(|e| e.fitness[i] == 0.0)
        {
            dynamic.add_int(-1000);
        }
        Ok(out)
    }
}
