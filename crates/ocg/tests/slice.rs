//! The slicer (`ocg::slice`) on the `ocg` fixture area (digest 000-001 §A7's E1–E3 and our own
//! classes whose hard branch needs an object graph): the leaves of each hard branch's graph
//! against what the paper says they are; a snapshot of every branch's graph of every class under
//! test (`test_data/<Class>.txt`, refresh with `UPDATE_EXPECT=1 cargo test -p ocg --test slice`);
//! and robustness on real jars (no panic, the node cap holds).

mod common;

use common::{classes_under_test, fixture_db, hard_branches, methods};

use std::time::{Duration, Instant};

use ocg::graph::Target;
use ocg::slice::{self, SliceConfig};
use ocg::{Input, NodeId, NodeKind, Ocg, Role};
use programdb::{MethodId, ProgramDb};

/// The one hard branch of `class`.
fn hard_graph(db: &ProgramDb, class: &str) -> Ocg {
    let targets = hard_branches(db, class);
    assert_eq!(targets.len(), 1, "{class}: one branch on the hard line");
    slice::build(db, targets[0], &SliceConfig::paper())
}

/// A node as `Owner.name` (fields), `Owner.name()` (calls), `[]:D` (elements), `this`/`argK`.
fn label(ocg: &Ocg, n: NodeId) -> String {
    match &ocg.get(n).kind {
        NodeKind::Field { owner, name, .. } => {
            format!("{}.{name}", owner.rsplit('/').next().unwrap_or(owner))
        }
        NodeKind::Call { owner, name, .. } => {
            format!("{}.{name}()", owner.rsplit('/').next().unwrap_or(owner))
        }
        NodeKind::ArrayElement { descriptor } => format!("[]:{descriptor}"),
        NodeKind::Input(Input::Receiver) => "this".to_owned(),
        NodeKind::Input(Input::Param { index }) => format!("arg{index}"),
        NodeKind::PassThrough => "pass".to_owned(),
    }
}

fn leaves(ocg: &Ocg) -> Vec<String> {
    let mut res: Vec<String> = ocg.leaves().into_iter().map(|n| label(ocg, n)).collect();
    res.sort();
    res
}

/// The labels of the nodes that flow into `n` with `role`.
fn parents(ocg: &Ocg, n: NodeId, role: Role) -> Vec<String> {
    ocg.parents(n).filter(|e| e.role == role).map(|e| label(ocg, e.from)).collect()
}

fn find(ocg: &Ocg, label_: &str) -> Vec<NodeId> {
    (0..ocg.nodes().len() as u32).map(NodeId).filter(|&n| label(ocg, n) == label_).collect()
}

fn one(ocg: &Ocg, label_: &str) -> NodeId {
    let found = find(ocg, label_);
    assert_eq!(found.len(), 1, "one node {label_} in\n{ocg:?}");
    found[0]
}

/// E1 (§A7): input `s` -> `getSupervisor()` -> `Student.supervisor` -> `getCV()` ->
/// `Supervisor.cv` -> `getAwardNum()` -> leaf `CV.awardNum`. Each field read is in the getter's
/// context and its owner is the value the previous getter returned (positional binding of the
/// getter's `this`); only the last is a slot, so it is the only leaf.
#[test]
fn e1_award_checker_chain() {
    let db = fixture_db();
    let g = hard_graph(&db, "AwardChecker");
    assert_eq!(leaves(&g), ["CV.awardNum"]);
    let supervisor = one(&g, "Student.supervisor");
    let cv = one(&g, "Supervisor.cv");
    let award = one(&g, "CV.awardNum");
    assert_eq!(parents(&g, supervisor, Role::Owner), ["arg0"]);
    assert_eq!(parents(&g, cv, Role::Owner), ["Student.getSupervisor()"]);
    assert_eq!(parents(&g, award, Role::Owner), ["Supervisor.getCV()"]);
    assert_eq!(parents(&g, one(&g, "Student.getSupervisor()"), Role::Returned), ["Student.supervisor"]);
    assert_eq!(parents(&g, one(&g, "Supervisor.getCV()"), Role::Returned), ["Supervisor.cv"]);
    assert_eq!(parents(&g, one(&g, "CV.getAwardNum()"), Role::Returned), ["CV.awardNum"]);
    // Call-site sensitivity: each field read sits in the context of its getter's call.
    for (field, getter) in [(supervisor, "getSupervisor"), (cv, "getCV"), (award, "getAwardNum")] {
        let ctx = &g.get(field).site.context;
        assert_eq!(ctx.len(), 1, "{getter}");
        assert_eq!(ctx[0].0, g.target.method);
    }
}

/// E2 (§A7, the paper's Gangup): leaves `Action.actor`, `Action.target`, `Player.action`, and
/// the element `players[target]`, a `Player` nothing reads (the branch only needs it non-null).
/// `player()` is two call-site nodes, each with its own copy of `players[id]` whose index is the
/// value `getActor()`/`getTarget()` returned (the `id` parameter bound to the argument), which also
/// guards the return (`id < 0 || id >= 128`). The paper's path of §A2.3, `aload(state) ->
/// player_1() -> astore(actor) -> aload(actor) -> getfield(action)`, is there edge by edge.
#[test]
fn e2_basic_rules_gangup() {
    let db = fixture_db();
    let g = hard_graph(&db, "BasicRules");
    assert_eq!(leaves(&g), ["Action.actor", "Action.target", "Player.action", "[]:Locg/Player;"]);
    let players = find(&g, "GameState.player()");
    assert_eq!(players.len(), 2, "player_1() and player_2()");
    let (p1, p2) = (players[0], players[1]);
    assert_ne!(g.get(p1).site.insn, g.get(p2).site.insn);
    assert_eq!(parents(&g, p1, Role::Arg(0)), ["Action.getActor()"]);
    assert_eq!(parents(&g, p2, Role::Arg(0)), ["Action.getTarget()"]);
    assert_eq!(parents(&g, p1, Role::Guard), ["Action.getActor()"]);
    assert_eq!(parents(&g, p1, Role::Receiver), ["arg1"]);
    let elements = find(&g, "[]:Locg/Player;");
    assert_eq!(elements.len(), 2);
    for (e, index) in elements.iter().zip(["Action.getActor()", "Action.getTarget()"]) {
        assert_eq!(parents(&g, *e, Role::ArrayIndex), [index]);
        assert_eq!(parents(&g, *e, Role::ArrayRef), ["GameState.players"]);
    }
    // aload(state) -> player_1() -> astore(actor) -> aload(actor) -> getfield(action).
    let action = one(&g, "Player.action");
    assert_eq!(parents(&g, action, Role::Owner), ["pass"]);
    let load = g.parents(action).find(|e| e.role == Role::Owner).expect("owner").from;
    let store = g.parents(load).next().expect("a store").from;
    assert_eq!(parents(&g, store, Role::AssignedValue), ["GameState.player()"]);
    assert_eq!(g.parents(store).next().map(|e| e.from), Some(p1));
}

/// E3 (§A7): leaves `Order.slot` (the shelf index), `Order.quantity` (the right-hand side) and
/// the state of the `shelves[]` element, `Shelf.capacity` and `Shelf.stored`, read by `free()`
/// on the element `shelf()` returned. The element itself is not a leaf: its state is read.
#[test]
fn e3_dispatcher_shelves() {
    let db = fixture_db();
    let g = hard_graph(&db, "Dispatcher");
    assert_eq!(leaves(&g), ["Order.quantity", "Order.slot", "Shelf.capacity", "Shelf.stored"]);
    let element = one(&g, "[]:Locg/Shelf;");
    assert_eq!(parents(&g, element, Role::ArrayIndex), ["Order.getSlot()"]);
    assert!(!g.is_leaf(element));
    assert_eq!(parents(&g, one(&g, "Warehouse.shelf()"), Role::Returned), ["[]:Locg/Shelf;"]);
    // The fields free() reads are owned by the local `s`, which holds what shelf() returned.
    let capacity = one(&g, "Shelf.capacity");
    assert_eq!(parents(&g, capacity, Role::Owner), ["pass"]);
}

/// The other classes of the area: the leaves are the slots and unread objects their hard
/// branch's comment says the search must set. A guard of the hard branch (the easy branch before
/// it) is in the slice too (§A2.2 item 3), so its fields are leaves as well: `Chain`'s first
/// `Node.value` (`head.getValue() < 0`), `Courier`'s `Parcel.weight`, `Inspector`'s `Plant.name`,
/// `LoanDesk`'s `Applicant.age` and `Branch.code`, `Turnstile`'s `Barrier.locked` and `Gate.closed`. The links on the
/// way (`Customer.cart`, `Hall.boiler`, ...) are not leaves: the chains are dereferenced, not
/// compared. `Checkout`'s `Basket.count` is read twice by `peek()`: in its
/// guard (`count == 0`) and in the index `count - 1`. `Thermostat`'s leaf element is `levels[ch]`
/// with the channel the `Reading` holds as its index. `Vault.code` is a leaf although nothing can
/// write it (the negative control: the template, not the graph, finds no setter).
#[test]
fn other_fixture_leaves() {
    let db = fixture_db();
    let expected: &[(&str, &[&str])] = &[
        ("Chain", &["Node.value", "Node.value"]),
        ("Checkout", &["Basket.count", "Basket.count", "Item.price"]),
        ("Courier", &["Hub.bays", "Parcel.weight"]),
        ("Inspector", &["Boiler.pressure", "Plant.name"]),
        ("Itinerary", &["City.population", "Journey.count"]),
        ("LoanDesk", &["Account.balance", "Applicant.age", "Branch.code"]),
        ("Thermostat", &["Reading.channel", "[]:I"]),
        ("Throttle", &["Rule.limit"]),
        ("Turnstile", &["Badge.key", "Barrier.locked", "Barrier.slot", "Gate.closed"]),
        ("Vault", &["Vault.code"]),
    ];
    for (class, want) in expected {
        assert_eq!(leaves(&hard_graph(&db, class)), *want, "{class}");
    }
    // Every class of the area has its expectation here or in its own test above.
    let mut covered: Vec<&str> = expected.iter().map(|e| e.0).collect();
    covered.extend(["AwardChecker", "BasicRules", "Dispatcher"]);
    covered.sort_unstable();
    assert_eq!(covered, classes_under_test());
    // Thermostat: the element's index is the local `ch`, assigned what getChannel() returned.
    let g = hard_graph(&db, "Thermostat");
    let element = one(&g, "[]:I");
    assert_eq!(parents(&g, element, Role::ArrayRef), ["Sensors.levels"]);
    assert_eq!(parents(&g, element, Role::ArrayIndex), ["pass"]);
}

/// Every branch of every method of every class under test, rendered; the hard ones marked.
#[test]
fn snapshots() {
    let db = fixture_db();
    for class in classes_under_test() {
        let hard = hard_branches(&db, &class);
        let mut out = String::new();
        for m in methods(&db, &class) {
            for insn in slice::branch_insns(&db, m) {
                let target = Target { method: m, insn };
                let s = slice::slice(&db, target, &SliceConfig::paper());
                let mark = if hard.contains(&target) { " HARD" } else { "" };
                out.push_str(&format!("#{mark} sliced {} nodes, kept {}\n", s.sliced, s.ocg.nodes().len()));
                out.push_str(&s.ocg.render(&db));
                let leaves = leaves(&s.ocg);
                out.push_str(&format!("  leaves: {}\n\n", leaves.join(", ")));
            }
        }
        expect_test::expect_file![format!("../test_data/{class}.txt")].assert_eq(&out);
    }
}

/// Building every graph of real code: no panic, the node cap holds, the graph is sound (edges
/// between existing nodes, acyclic, inputs only in the method under test and without parents,
/// contexts no deeper than `t_dep`) and deterministic. All of commons-lang3, then up to 3 s of
/// each further jar of the corpus while the test is under 20 s (about 60,000 graphs in 12 s).
#[test]
fn corpus_robustness() {
    let config = SliceConfig::paper();
    let started = Instant::now();
    let (mut graphs, mut cut, mut nonempty, mut max_kept) = (0usize, 0usize, 0usize, 0usize);
    for (k, jar) in test_support::corpus_jars().iter().enumerate() {
        // A loaded machine gets fewer jars, not a slower test.
        if started.elapsed() > Duration::from_secs(20) {
            break;
        }
        let mut paths = vec![jar.path.clone()];
        paths.extend(jar.deps.iter().cloned());
        let db = test_support::open_db(&paths);
        let budget = if k == 0 { Duration::MAX } else { Duration::from_secs(3) };
        let jar_start = Instant::now();
        for c in db.class_ids().collect::<Vec<_>>() {
            for m in db.methods(c).collect::<Vec<_>>() {
                for insn in slice::branch_insns(&db, m) {
                    let target = Target { method: m, insn };
                    let s = slice::slice(&db, target, &config);
                    check_sound(&s.ocg, m, &config);
                    assert!(s.sliced <= config.max_nodes && s.ocg.nodes().len() <= s.sliced);
                    if graphs % 16 == 0 {
                        assert_eq!(slice::build(&db, target, &config), s.ocg, "deterministic");
                    }
                    graphs += 1;
                    cut += usize::from(s.cut);
                    nonempty += usize::from(!s.ocg.is_empty());
                    max_kept = max_kept.max(s.ocg.nodes().len());
                }
            }
            if jar_start.elapsed() > budget {
                break;
            }
        }
    }
    eprintln!(
        "{graphs} graphs ({nonempty} non-empty, {cut} cut at {} nodes) in {:?}; largest distilled graph {max_kept} nodes",
        config.max_nodes,
        started.elapsed()
    );
    assert!(graphs > 10_000 && nonempty > 1_000);
}

fn check_sound(g: &Ocg, m: MethodId, config: &SliceConfig) {
    let n = g.nodes().len();
    let mut indegree = vec![0usize; n];
    for e in g.edges() {
        assert!(e.from.index() < n && e.to.index() < n && e.from != e.to);
        indegree[e.to.index()] += 1;
    }
    for (i, node) in g.nodes().iter().enumerate() {
        if matches!(node.kind, NodeKind::Input(_)) {
            assert!(node.site.context.is_empty() && node.site.method == m);
            assert_eq!(indegree[i], 0);
        }
        assert!(node.site.context.len() <= config.depth as usize);
    }
    // Acyclic: Kahn's algorithm removes every node.
    let mut ready: Vec<NodeId> = (0..n as u32).map(NodeId).filter(|x| indegree[x.index()] == 0).collect();
    let mut removed = 0;
    while let Some(x) = ready.pop() {
        removed += 1;
        for e in g.children(x) {
            indegree[e.to.index()] -= 1;
            if indegree[e.to.index()] == 0 {
                ready.push(e.to);
            }
        }
    }
    assert_eq!(removed, n, "a cycle in\n{g:?}");
}
