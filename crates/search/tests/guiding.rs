//! Smart selection's target policy (`search::guiding::Guiding`, digest 002 §3.7–3.8) on the fake
//! problem of `cluster.Overloads`, for each of the five algorithms: with every goal guiding it is
//! the configuration's own policy, run for run; otherwise only guiding goals are targets or
//! released, a deferred goal a test covers is archived all the same, and under DynaMOSA covering
//! a deferred goal still releases the guiding goals that depend on it.

mod common;

use common::{FakeProblem, Goal, overloads_cluster};
use search::guiding::Guiding;
use search::{
    Algorithm, Budget, Event, GoalIdx, Problem, Seams, SearchConfig, SearchResult, SystemClock, target_policy,
};
use testcase::{FactoryConfig, TestCluster, ValuePool, rng_from_seed};

fn config(algorithm: Algorithm, evaluations: u64) -> SearchConfig {
    SearchConfig { algorithm, ..SearchConfig::evosuite(Budget::evaluations(evaluations)) }
}

/// Runs `config` on the fake problem with seed `seed`: through `search::run` when `guides` is
/// `None`, else with `Guiding` over the configuration's policy.
fn run(
    cluster: &TestCluster,
    config: &SearchConfig,
    seed: u64,
    guides: Option<(Vec<bool>, Option<Vec<f64>>)>,
) -> (SearchResult, Vec<Event>) {
    let mut problem = FakeProblem::new(cluster, true);
    let mut pool = ValuePool::new(cluster.constants().clone(), FactoryConfig::evosuite().dynamic_pool_size);
    let mut rng = rng_from_seed(seed);
    let mut events = Vec::new();
    let clock = SystemClock::start();
    let mut on_event = |e: &Event| events.push(e.clone());
    let result = match guides {
        None => search::run(&mut problem, cluster, &mut pool, config, &clock, &mut rng, &mut on_event),
        Some((guides, weights)) => {
            let policy = Guiding::new(target_policy(config), guides, true, weights);
            let seams = Seams { hooks: Vec::new(), policy: Some(Box::new(policy)) };
            search::run_with(&mut problem, cluster, &mut pool, config, &clock, &mut rng, &mut on_event, seams)
        }
    }
    .expect("search runs");
    (result, events)
}

fn goal(cluster: &TestCluster, g: &Goal) -> GoalIdx {
    let p = FakeProblem::new(cluster, true);
    GoalIdx::new(p.goals.iter().position(|x| x == g).expect("the fake problem has the goal"))
}

/// Every goal guiding, no weights (or unit weights): the same batches, events and archive as the
/// configuration's own policy, for every algorithm.
#[test]
fn every_goal_guiding_is_the_plain_run() {
    let cluster = overloads_cluster();
    let n = FakeProblem::new(&cluster, true).n_goals();
    for alg in Algorithm::ALL {
        let c = config(alg, 2_000);
        let (plain, plain_events) = run(&cluster, &c, 7, None);
        for weights in [None, Some(vec![1.0; n])] {
            let (guided, events) = run(&cluster, &c, 7, Some((vec![true; n], weights)));
            assert_eq!(plain.archive.to_text(), guided.archive.to_text(), "{}", alg.name());
            assert_eq!(plain.stats.history, guided.stats.history, "{}", alg.name());
            assert_eq!(plain_events, events, "{}", alg.name());
        }
    }
}

/// The call of `add(int, int)` deferred: never a target nor released, archived when a test covers
/// it; the other goals guide (all of them from the start but under DynaMOSA, which releases
/// `AddFirst42`, guiding, when the call, deferred, is covered).
#[test]
fn deferred_goals_are_archived_but_never_targets() {
    let cluster = overloads_cluster();
    let n = FakeProblem::new(&cluster, true).n_goals();
    let call =
        Goal::Calls { class: "cluster.Overloads".into(), name: "add".into(), descriptor: "(II)I".into() };
    let add = goal(&cluster, &call);
    let first = goal(&cluster, &Goal::AddFirst42);
    let mut guides = vec![true; n];
    guides[add.index()] = false;
    for alg in Algorithm::ALL {
        let (result, events) = run(&cluster, &config(alg, 3_000), 11, Some((guides.clone(), None)));
        let mut released = Vec::new();
        for e in &events {
            match *e {
                Event::Iteration { targets, .. } if alg != Algorithm::DynaMosa => {
                    assert_eq!(targets, n - 1, "{}", alg.name())
                }
                Event::Released { goal, by } => released.push((goal, by)),
                _ => {}
            }
        }
        assert!(released.iter().all(|&(g, _)| g != add), "{}: a deferred goal released", alg.name());
        assert!(result.archive.is_covered(add), "{}: the deferred goal is archived", alg.name());
        if alg == Algorithm::DynaMosa {
            assert!(released.contains(&(first, Some(add))), "{}: {released:?}", alg.name());
        } else {
            assert!(released.is_empty(), "{}", alg.name());
        }
    }
}

/// Whole suite sums the guiding goals with their weights: weights of 0 make every suite's fitness
/// 0, so only length sorts the suites and the run differs; weights of 1 change nothing (above).
#[test]
fn whole_suite_weighs_the_goals() {
    let cluster = overloads_cluster();
    let n = FakeProblem::new(&cluster, true).n_goals();
    let c = config(Algorithm::WholeSuite, 2_000);
    let (plain, _) = run(&cluster, &c, 3, None);
    let (weighted, _) = run(&cluster, &c, 3, Some((vec![true; n], Some(vec![0.0; n]))));
    assert_ne!(plain.archive.to_text(), weighted.archive.to_text());
}
