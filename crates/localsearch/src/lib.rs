//! localsearch: the alternating variable method (AVM; Korel 1990, as EvoSuite's primitive local
//! search uses it) as a search hook, for goals whose best test has a gradient that the mutation's
//! small steps (±20, EvoSuite's `MAX_DELTA`) climb too slowly: `v >= 5_000` from the random range
//! takes hundreds of generations, a round of exponential moves takes one (docs/localsearch.md).
//!
//! How it deviates from the sequential AVM: a hook sees the search only between generations, and
//! its tests run in a batch two batches later (`search::seam`). So one *round* moves one number of
//! one goal's best test by `±2^k` for every `k < exponents` at once (the AVM's exponential phase,
//! all of its steps in one batch), and the next round, once those results are in, starts from the
//! goal's best test then: the best probe if one improved the goal (same number again), the old test
//! if none did (the next number). Each round at least halves the distance to a threshold, so
//! `2^k`-far values take about `k` rounds. A goal whose every number was tried at one fitness
//! without a gain gets, when `calls` is set, a second pass of *call rounds*: for each number passed to a method, the call
//! is made once more right after itself, with the number moved `±2^k` (our extension, not the AVM:
//! one more element next to one the test already adds, docs/localsearch.md "Call rounds"). A goal
//! whose call rounds missed too is left alone until its fitness changes. Probes count against the
//! budget like the search's own tests, and local search adds at most `share` × the evaluations so
//! far. It draws nothing from the search's RNG. With `strings`, the strings of the best test are
//! variables too, after its numbers: a round on a string takes one position of it (`strings`,
//! EvoSuite's `StringLocalSearch`), and the string counts as missed once every position was.

mod strings;

pub use strings::{alphabet, string_moves};

use std::collections::BTreeMap;

use search::{GoalIdx, Hook, ProblemError, View};
use testcase::{PrimValue, Statement, TestCase, TestRng, VarId};

/// `--local-search` and its parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalSearchConfig {
    pub enabled: bool,
    /// A round moves a number by `±2^k` for `k` in `0..exponents` (a round: `2 × exponents` tests).
    pub exponents: u32,
    /// The most tests local search adds, as a share of the search's evaluations so far.
    pub share: f64,
    /// Call rounds after a goal's plain rounds missed every number (docs/localsearch.md "Call
    /// rounds"); without them such a goal is exhausted there.
    pub calls: bool,
    /// Rounds on the strings of the best test too, one position each (docs/localsearch.md
    /// "Strings").
    pub strings: bool,
}

impl LocalSearchConfig {
    /// The defaults, switched off: steps up to `2^15` (a number from the random range to ±65,535
    /// in one round), at most a fifth of the evaluations, no call rounds, no string rounds.
    pub fn off() -> LocalSearchConfig {
        LocalSearchConfig { enabled: false, exponents: 16, share: 0.2, calls: false, strings: false }
    }
}

/// What local search did (report.json `local_search`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LocalSearchStats {
    /// Rounds made (one number of one goal's best test, moved every way at once).
    pub rounds: u64,
    /// Tests those rounds added to the search.
    pub tests: u64,
    /// Rounds after which their goal's best fitness was lower.
    pub improved: u64,
    /// Rounds after which their goal was covered (by a probe or by the search's own tests of the
    /// same batches).
    pub covered: u64,
    /// Times a goal had every number of its best test tried at one fitness without a gain, in
    /// plain rounds and then in call rounds.
    pub exhausted: u64,
    /// Call rounds among `rounds`: a call made once more with its number moved.
    pub call_rounds: u64,
    /// String rounds among `rounds`: one position of a string edited every way at once.
    pub string_rounds: u64,
}

/// Where the search of one goal stands.
#[derive(Debug, Clone, Default, PartialEq)]
struct GoalState {
    /// Which variable of the best test the next round moves (modulo their count).
    cursor: usize,
    /// When that variable is a string, the position the next round edits, and whether a round of
    /// this pass over its positions gained.
    pos: usize,
    gained_in_pass: bool,
    /// Rounds in a row without a gain.
    misses: usize,
    /// Whether the plain rounds missed every number at this fitness and call rounds are made.
    calls: bool,
    /// The fitness at which every number was tried without a gain, in both kinds of round.
    exhausted_at: Option<f64>,
}

impl GoalState {
    /// A round's outcome: `before` the goal's fitness when it was made, `now` after its tests
    /// ran; `numbers` and `copyable` how many variables the best test has and how many a call
    /// round could copy a call of; `string_len` the length of the variable the round edited when
    /// it is a string: a miss there moves to its next position, and only a miss at its last
    /// position (past its end) moves to the next variable.
    fn settle(
        &mut self,
        before: f64,
        now: f64,
        numbers: usize,
        copyable: usize,
        string_len: Option<usize>,
    ) -> Outcome {
        if now < before {
            self.misses = 0;
            self.gained_in_pass = true;
            return Outcome::Improved;
        }
        if let Some(n) = string_len.filter(|_| !self.calls) {
            if self.pos < n {
                self.pos += 1;
                return Outcome::Missed;
            }
            // A pass that gained somewhere may have made an earlier position matter (a parser's
            // later check passed reaches a field before it): another pass, as EvoSuite's string
            // local search repeats its passes while they improve.
            self.pos = 0;
            if std::mem::take(&mut self.gained_in_pass) {
                return Outcome::Missed;
            }
        }
        self.pos = 0;
        self.cursor += 1;
        self.misses += 1;
        let tried = if self.calls { copyable } else { numbers };
        if self.misses < tried.max(1) {
            return Outcome::Missed;
        }
        self.misses = 0;
        if !self.calls && copyable > 0 {
            self.calls = true;
            self.cursor = 0;
            return Outcome::Missed;
        }
        self.exhausted_at = Some(now);
        Outcome::Exhausted
    }

    /// Whether a round may start at fitness `f`: not when every number was tried at it. A goal
    /// reopened by the search's own progress starts again with plain rounds.
    fn open_at(&mut self, f: f64) -> bool {
        match self.exhausted_at {
            Some(e) if e == f => false,
            Some(_) => {
                self.exhausted_at = None;
                self.calls = false;
                true
            }
            None => true,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Improved,
    Missed,
    Exhausted,
}

/// A round whose tests are not all evaluated yet.
#[derive(Debug, Clone)]
struct Pending {
    goal: GoalIdx,
    /// `View::iteration` when it was made: its tests run in the batch after the next one.
    made: u64,
    before: f64,
}

/// The hook.
pub struct LocalSearch {
    config: LocalSearchConfig,
    goals: BTreeMap<GoalIdx, GoalState>,
    pending: Vec<Pending>,
    stats: LocalSearchStats,
    /// The chars string rounds write (`strings::alphabet` of the static pool), read on first use.
    alphabet: Option<Vec<char>>,
}

impl LocalSearch {
    pub fn new(config: &LocalSearchConfig) -> LocalSearch {
        LocalSearch {
            config: config.clone(),
            goals: BTreeMap::new(),
            pending: Vec::new(),
            stats: LocalSearchStats::default(),
            alphabet: None,
        }
    }

    pub fn stats(&self) -> &LocalSearchStats {
        &self.stats
    }

    /// The longest test a call round may make: the search's own bound on a test's length.
    fn max_length(&self, view: &View<'_>) -> usize {
        view.config().factory.chromosome_length
    }

    /// Reads the outcome of every round whose tests have all been evaluated: a round made after
    /// batch k is in batch k+2 (`search::seam`), absorbed when the iteration reaches k+2.
    fn settle(&mut self, view: &View<'_>) {
        let now = view.iteration();
        let (done, waiting): (Vec<Pending>, Vec<Pending>) =
            std::mem::take(&mut self.pending).into_iter().partition(|p| now >= p.made + 2);
        self.pending = waiting;
        for p in done {
            let Some((f, test)) = view.best(p.goal) else {
                if view.archive().is_covered(p.goal) {
                    self.stats.covered += 1;
                }
                self.goals.remove(&p.goal);
                continue;
            };
            let copyable = if self.config.calls { copyable(test, self.max_length(view)).len() } else { 0 };
            let vars = variables(test, self.config.strings);
            let state = self.goals.entry(p.goal).or_default();
            let string_len =
                vars.get(state.cursor % vars.len().max(1)).and_then(|&i| match &test.statements[i] {
                    Statement::String(s) => Some(s.chars().count()),
                    _ => None,
                });
            match state.settle(p.before, f, vars.len(), copyable, string_len) {
                Outcome::Improved => self.stats.improved += 1,
                Outcome::Missed => {}
                Outcome::Exhausted => self.stats.exhausted += 1,
            }
        }
    }

    /// The goal of the next round: among the uncovered targets with a best test that has a
    /// number, none of whose rounds is pending and that is not exhausted at its fitness, the one
    /// closest to being covered (then the lowest index).
    fn choose<'v>(&mut self, view: &View<'v>) -> Option<(GoalIdx, f64, &'v TestCase)> {
        let mut best: Option<(GoalIdx, f64, &'v TestCase)> = None;
        let strings = self.config.strings;
        for g in view.uncovered_targets() {
            if self.pending.iter().any(|p| p.goal == g) {
                continue;
            }
            let Some((f, test)) = view.best(g) else { continue };
            if !(f > 0.0 && f.is_finite()) || best.is_some_and(|(_, bf, _)| bf <= f) {
                continue;
            }
            // Checked per uncovered target every generation: no list built, no state made for a
            // goal that has none yet (an absent state is open).
            let movable = |s: &Statement| is_number(s) || (strings && matches!(s, Statement::String(_)));
            if test.statements.iter().any(movable) && self.goals.get_mut(&g).is_none_or(|s| s.open_at(f)) {
                best = Some((g, f, test));
            }
        }
        best
    }
}

impl<P: ?Sized> Hook<P> for LocalSearch {
    fn between(
        &mut self,
        view: &View<'_>,
        _problem: &mut P,
        _rng: &mut TestRng,
    ) -> Result<Vec<TestCase>, ProblemError> {
        self.settle(view);
        let round = 2 * u64::from(self.config.exponents);
        let allowed = (self.config.share * view.evaluations() as f64) as u64;
        if round == 0 || self.stats.tests + round > allowed {
            return Ok(Vec::new());
        }
        let Some((goal, before, test)) = self.choose(view) else { return Ok(Vec::new()) };
        let calls = self.goals.get(&goal).is_some_and(|s| s.calls);
        let (cursor, pos) = self.goals.get(&goal).map_or((0, 0), |s| (s.cursor, s.pos));
        // The number to move, and in a call round the call made again with it.
        let (stmt, call) = if calls {
            let at = copyable(test, self.max_length(view));
            let Some(&(stmt, call)) = at.get(cursor % at.len().max(1)) else {
                // The best test changed to one with no call to copy (too long): nothing left here.
                let state = self.goals.entry(goal).or_default();
                *state = GoalState { exhausted_at: Some(before), ..GoalState::default() };
                self.stats.exhausted += 1;
                return Ok(Vec::new());
            };
            (stmt, Some(call))
        } else {
            let at = variables(test, self.config.strings);
            (at[cursor % at.len()], None)
        };
        if let Some(Statement::String(s)) = test.statements.get(stmt) {
            let letters = self.alphabet.get_or_insert_with(|| alphabet(&view.cluster().constants().strings));
            let tests: Vec<TestCase> = string_moves(s, pos, letters)
                .into_iter()
                .map(|v| {
                    let mut t = test.clone();
                    t.statements[stmt] = Statement::String(v);
                    t
                })
                .collect();
            if self.stats.tests + tests.len() as u64 > allowed {
                return Ok(Vec::new());
            }
            self.stats.string_rounds += 1;
            self.stats.rounds += 1;
            self.stats.tests += tests.len() as u64;
            self.pending.push(Pending { goal, made: view.iteration(), before });
            return Ok(tests);
        }
        let Some(Statement::Primitive(value)) = test.statements.get(stmt) else { return Ok(Vec::new()) };
        let tests: Vec<TestCase> = moves(*value, self.config.exponents)
            .into_iter()
            .map(|v| match call {
                Some(call) => with_call_again(test, stmt, call, v),
                None => {
                    let mut t = test.clone();
                    t.statements[stmt] = Statement::Primitive(v);
                    t
                }
            })
            .collect();
        self.stats.call_rounds += u64::from(call.is_some());
        self.stats.rounds += 1;
        self.stats.tests += tests.len() as u64;
        self.pending.push(Pending { goal, made: view.iteration(), before });
        Ok(tests)
    }
}

/// Whether a statement is a numeric primitive (not a boolean): what a round moves.
fn is_number(s: &Statement) -> bool {
    matches!(s, Statement::Primitive(v) if !matches!(v, PrimValue::Boolean(_)))
}

/// The positions of a test's numeric primitive statements.
pub fn numbers(test: &TestCase) -> Vec<usize> {
    test.statements.iter().enumerate().filter(|(_, s)| is_number(s)).map(|(i, _)| i).collect()
}

/// The variables rounds move, in the order they take them: the numbers, then with `strings` the
/// string statements.
pub fn variables(test: &TestCase, strings: bool) -> Vec<usize> {
    let texts =
        test.statements.iter().enumerate().filter(|(_, s)| strings && matches!(s, Statement::String(_)));
    numbers(test).into_iter().chain(texts.map(|(i, _)| i)).collect()
}

/// The numbers a call round may move, with the call it copies: each numeric primitive passed as
/// an argument (not as the receiver) to a method, paired with the first such call; none when the
/// copy would make the test longer than `max_length`.
pub fn copyable(test: &TestCase, max_length: usize) -> Vec<(usize, usize)> {
    if test.len() + 2 > max_length {
        return Vec::new();
    }
    numbers(test)
        .into_iter()
        .filter_map(|i| {
            let v = VarId(i as u32);
            test.statements[i + 1..]
                .iter()
                .position(|s| matches!(s, Statement::Method { args, .. } if args.contains(&v)))
                .map(|k| (i, i + 1 + k))
        })
        .collect()
}

/// `test` with the call at `call` made once more right after itself, where the number at `stmt`
/// is replaced by `v` (a new statement just before the copy); the original call is unchanged.
pub fn with_call_again(test: &TestCase, stmt: usize, call: usize, v: PrimValue) -> TestCase {
    let mut t = test.clone();
    let Some(Statement::Method { method, receiver, args }) = test.statements.get(call) else { return t };
    let moved = t.insert(call + 1, Statement::Primitive(v));
    let old = VarId(stmt as u32);
    let args = args.iter().map(|&a| if a == old { moved } else { a }).collect();
    t.insert(call + 2, Statement::Method { method: method.clone(), receiver: *receiver, args });
    t
}

/// One round's values for `v`: `v + 2^k`, then `v − 2^k`, for `k` in `0..exponents`, each only when
/// it stays in `v`'s type (no wrap-around: a jump from `i32::MAX` to `i32::MIN` is no local move).
/// Floating-point numbers move by `2^(k−4)`, from 1/16 up, and not at all when not finite.
pub fn moves(v: PrimValue, exponents: u32) -> Vec<PrimValue> {
    let mut out = Vec::with_capacity(2 * exponents as usize);
    for k in 0..exponents.min(63) {
        let step = 1i128 << k;
        let fstep = 2f64.powi(k as i32 - 4);
        for sign in [1i128, -1] {
            let moved = match v {
                PrimValue::Boolean(_) => None,
                PrimValue::Byte(x) => i8::try_from(i128::from(x) + sign * step).ok().map(PrimValue::Byte),
                PrimValue::Short(x) => i16::try_from(i128::from(x) + sign * step).ok().map(PrimValue::Short),
                PrimValue::Char(x) => u16::try_from(i128::from(x) + sign * step).ok().map(PrimValue::Char),
                PrimValue::Int(x) => i32::try_from(i128::from(x) + sign * step).ok().map(PrimValue::Int),
                PrimValue::Long(x) => i64::try_from(i128::from(x) + sign * step).ok().map(PrimValue::Long),
                PrimValue::Float(bits) => {
                    let x = f32::from_bits(bits);
                    let y = x + (sign as f32) * fstep as f32;
                    (x.is_finite() && y.is_finite() && y != x).then(|| PrimValue::float(y))
                }
                PrimValue::Double(bits) => {
                    let x = f64::from_bits(bits);
                    let y = x + (sign as f64) * fstep;
                    (x.is_finite() && y.is_finite() && y != x).then(|| PrimValue::double(y))
                }
            };
            out.extend(moved);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_moves_are_exponential_both_ways_and_stay_in_range() {
        let ints = |xs: &[i32]| xs.iter().map(|&x| PrimValue::Int(x)).collect::<Vec<_>>();
        assert_eq!(moves(PrimValue::Int(10), 3), ints(&[11, 9, 12, 8, 14, 6]));
        // At the top of the type only the downward moves remain.
        assert_eq!(
            moves(PrimValue::Byte(126), 2),
            vec![PrimValue::Byte(127), PrimValue::Byte(125), PrimValue::Byte(124)]
        );
        assert_eq!(moves(PrimValue::Char(0), 2), vec![PrimValue::Char(1), PrimValue::Char(2)]);
        assert_eq!(moves(PrimValue::Boolean(true), 4), Vec::new());
        assert_eq!(moves(PrimValue::Int(0), 16).len(), 32);
    }

    #[test]
    fn floating_moves_start_at_a_sixteenth_and_skip_non_finite_values() {
        assert_eq!(
            moves(PrimValue::double(1.0), 2),
            vec![
                PrimValue::double(1.0625),
                PrimValue::double(0.9375),
                PrimValue::double(1.125),
                PrimValue::double(0.875)
            ]
        );
        assert_eq!(moves(PrimValue::double(f64::NAN), 4), Vec::new());
        assert_eq!(moves(PrimValue::float(f32::INFINITY), 4), Vec::new());
    }

    /// The worked example of the module's doc: from 0 to the band [5000, 5010] of `v >= 5_000 &&
    /// v <= 5_010`, each round taking the best of its moves (distance to the band), needs about
    /// four rounds (0 → 4,096 → 5,120 → 4,992 → 5,000), where ±20 steps need 250 mutations.
    #[test]
    fn rounds_reach_a_far_band_in_logarithmically_many_steps() {
        let distance = |v: i64| {
            if v < 5000 {
                5000 - v
            } else if v > 5010 {
                v - 5010
            } else {
                0
            }
        };
        let mut v = 0i64;
        let mut rounds = 0;
        while distance(v) > 0 {
            let best = moves(PrimValue::Int(v as i32), 16)
                .into_iter()
                .map(|p| match p {
                    PrimValue::Int(x) => i64::from(x),
                    _ => unreachable!("int moves are ints"),
                })
                .min_by_key(|&x| (distance(x), x))
                .expect("moves");
            assert!(distance(best) < distance(v), "round {rounds} from {v} gained nothing");
            v = best;
            rounds += 1;
        }
        assert!((5000..=5010).contains(&v));
        assert_eq!(rounds, 4, "rounds from 0 to the band");
    }

    #[test]
    fn a_goal_is_exhausted_after_every_number_missed_and_reopens_when_its_fitness_changes() {
        let mut s = GoalState::default();
        assert!(s.open_at(0.5));
        assert_eq!(s.settle(0.5, 0.4, 2, 0, None), Outcome::Improved);
        assert_eq!(s.cursor, 0, "a gain keeps moving the same number");
        assert_eq!(s.settle(0.4, 0.4, 2, 0, None), Outcome::Missed);
        assert_eq!(s.cursor, 1);
        assert_eq!(s.settle(0.4, 0.4, 2, 0, None), Outcome::Exhausted, "no call to copy: no call rounds");
        assert!(!s.open_at(0.4));
        assert!(s.open_at(0.3), "the search's own tests moved it");
        assert_eq!(s.exhausted_at, None);
    }

    #[test]
    fn call_rounds_follow_the_plain_ones_and_end_in_exhaustion() {
        let mut s = GoalState::default();
        assert_eq!(s.settle(0.4, 0.4, 2, 1, None), Outcome::Missed);
        assert_eq!(s.settle(0.4, 0.4, 2, 1, None), Outcome::Missed, "on to the call rounds");
        assert!(s.calls);
        assert_eq!(s.cursor, 0, "call rounds start at the first copyable number");
        assert_eq!(s.settle(0.4, 0.3, 3, 1, None), Outcome::Improved);
        assert!(s.calls, "a gain keeps copying the same call");
        assert_eq!(s.settle(0.3, 0.3, 3, 1, None), Outcome::Exhausted);
        assert!(!s.open_at(0.3));
        assert!(s.open_at(0.2));
        assert!(!s.calls, "reopened goals start with plain rounds again");
    }

    /// A string is one variable: a miss moves to its next position, a gain stays there, a pass
    /// that gained starts another, and only a pass without a gain moves to the next variable.
    #[test]
    fn a_string_is_missed_once_every_position_was() {
        let mut s = GoalState::default();
        assert_eq!(s.settle(0.4, 0.4, 2, 0, Some(2)), Outcome::Missed);
        assert_eq!((s.cursor, s.pos), (0, 1));
        assert_eq!(s.settle(0.4, 0.3, 2, 0, Some(2)), Outcome::Improved);
        assert_eq!((s.cursor, s.pos), (0, 1), "a gain edits the same position again");
        assert_eq!(s.settle(0.3, 0.3, 2, 0, Some(3)), Outcome::Missed);
        assert_eq!(s.settle(0.3, 0.3, 2, 0, Some(3)), Outcome::Missed);
        assert_eq!((s.cursor, s.pos), (0, 3), "the end: insertions only");
        assert_eq!(s.settle(0.3, 0.3, 2, 0, Some(3)), Outcome::Missed);
        assert_eq!((s.cursor, s.pos), (0, 0), "the pass gained: another pass");
        for _ in 0..3 {
            assert_eq!(s.settle(0.3, 0.3, 2, 0, Some(3)), Outcome::Missed);
        }
        assert_eq!(s.settle(0.3, 0.3, 2, 0, Some(3)), Outcome::Missed);
        assert_eq!((s.cursor, s.pos), (1, 0), "a pass without a gain: the next variable");
        assert_eq!(s.settle(0.3, 0.3, 2, 0, None), Outcome::Exhausted);
    }
}
