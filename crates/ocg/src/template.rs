//! Template synthesis (paper 000 Algorithm 1, digest 000-001 §A2.4): an object construction graph
//! becomes a test of our model that builds the objects the branch reads and then calls the method
//! under test.
//!
//! Line 1 of Algorithm 1 makes a random call of the method under test; its receiver and
//! arguments are the graph inputs. The nodes are then visited parents first (the BFS with
//! re-enqueueing of Algorithm 1, done as a topological order, which needs no loop guard: a node
//! whose parents cannot all be generated gets no statement, and nor do its descendants that need
//! its value), and each inserts its statements just before that final call:
//! - a pass-through node reuses its parent's variable (no statement);
//! - a call node calls the method on its `Receiver` parent's variable with its `Arg(k)` parents'
//!   variables, other arguments made as for any insertion;
//! - a field node whose owner has a variable: a leaf gets a slot, written by a public field write
//!   or by a setter sampled by Eq. (1) (`access`), whose primitive arguments are the slots the
//!   search then mutates; a reference-typed non-leaf gets a fresh object installed by a setter
//!   (the null-safe construction the digest recommends, §A2.4 "Gap"), or failing that the
//!   getter's result; an array-typed non-leaf gets no statement: its elements are written through
//!   the element setters of its owner (an element is a field of the array, §A2.4);
//! - an array-element node: a slot or a fresh object, installed by an element setter of the
//!   array's owner with the index parent's variable as the index argument.
//!
//! Deviations: setters are only methods of the owner's class hierarchy that the test cluster
//! offers (a constructor that sets a field is not used to re-make an input); a static field is a
//! global and gets no statement; a template longer than `max_length` is not made.

use jvm_model::ClassName;
use std::collections::BTreeMap;
use std::sync::Arc;

use programdb::ProgramDb;
use testcase::cluster::{CallableKind, GenericCallable};
use testcase::types::parse_field_type;
use testcase::{JType, Statement, TestCase, TestCluster, TestFactory, TestRng, VarId};

use crate::access::{self, AccessConfig, FieldSlot};
use crate::graph::{Input, NodeId, NodeKind, Ocg, Role};

/// What a template may be.
#[derive(Debug, Clone, PartialEq)]
pub struct TemplateConfig {
    /// The longest template made (the paper raises EvoSuite's test length to 200 for templates).
    pub max_length: usize,
    pub access: AccessConfig,
}

impl TemplateConfig {
    pub fn paper() -> TemplateConfig {
        TemplateConfig { max_length: 200, access: AccessConfig::paper() }
    }
}

/// Why no template was made for a graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum NoTemplate {
    /// The method under test is not a method the test cluster can call (private, a constructor,
    /// of another class).
    NotCallable,
    /// The call of the method under test could not be made (a parameter type has no value).
    NoCall,
    /// No node of the graph yielded a statement.
    Nothing,
    /// Longer than `max_length`.
    TooLong,
    /// Not a valid test of our model (`testcase::check`); never seen, kept as a gate.
    Invalid,
}

/// A template and what it holds.
#[derive(Debug, Clone)]
pub struct Template {
    pub test: TestCase,
    /// Nodes that yielded statements (or reused a variable).
    pub nodes_generated: usize,
}

/// The value a node stands for while the template is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Val {
    Var(VarId),
    /// An array held in field `node` (a `Field` node) of the object in `owner`: written element by
    /// element through its owner's element setters.
    ArrayField {
        node: NodeId,
        owner: VarId,
    },
}

/// Builds the template of `ocg` (Algorithm 1). Draws from `rng` only.
pub fn synthesize(
    db: &ProgramDb,
    ocg: &Ocg,
    cluster: &TestCluster,
    factory: &TestFactory<'_>,
    config: &TemplateConfig,
    rng: &mut TestRng,
) -> Result<Template, NoTemplate> {
    let target = entry_callable(db, ocg, cluster).ok_or(NoTemplate::NotCallable)?;
    let mut test = TestCase::new();
    let mut pos = 0;
    factory.insert_call_with(&mut test, &mut pos, &target, None, &[], rng).ok_or(NoTemplate::NoCall)?;
    let mut b = Builder { db, ocg, cluster, factory, config, test, vals: BTreeMap::new(), generated: 0 };
    b.bind_inputs();
    for n in topological(ocg) {
        if b.vals.contains_key(&n) {
            continue;
        }
        if let Some(v) = b.generate(n, rng) {
            b.vals.insert(n, v);
            b.generated += 1;
        }
    }
    if b.generated == 0 {
        return Err(NoTemplate::Nothing);
    }
    if b.test.len() > config.max_length {
        return Err(NoTemplate::TooLong);
    }
    // Every statement was checked where it went in; the whole test once more, so that a template
    // the search receives is always valid.
    if testcase::check(&b.test, cluster).is_err() {
        return Err(NoTemplate::Invalid);
    }
    let mut test = b.test;
    test.lineage.template = true;
    Ok(Template { test, nodes_generated: b.generated })
}

/// The cluster's callable for the method the graph's branch is in.
fn entry_callable(db: &ProgramDb, ocg: &Ocg, cluster: &TestCluster) -> Option<Arc<GenericCallable>> {
    let m = ocg.target.method;
    let class = db.class(m.class()).ok()?;
    let member = db.member(m)?;
    let name = member.name(&class.constant_pool)?;
    let descriptor = member.descriptor(&class.constant_pool)?;
    let binary = ClassName::from_internal(db.class_name(m.class())).binary();
    if name.starts_with('<') {
        return None;
    }
    cluster
        .targets()
        .iter()
        .find(|g| {
            g.kind == CallableKind::Method
                && g.class == binary
                && g.name == name
                && g.descriptor == descriptor
        })
        .cloned()
}

/// The nodes, parents before children (Kahn's algorithm, ties by node id); nodes on a cycle
/// (none in a distilled graph) are left out.
fn topological(ocg: &Ocg) -> Vec<NodeId> {
    let n = ocg.nodes().len();
    let mut indegree = vec![0usize; n];
    for e in ocg.edges() {
        if e.from != e.to {
            indegree[e.to.index()] += 1;
        }
    }
    let mut ready: std::collections::BTreeSet<NodeId> =
        (0..n as u32).map(NodeId).filter(|id| indegree[id.index()] == 0).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(id) = ready.pop_first() {
        order.push(id);
        for e in ocg.children(id) {
            if e.from != e.to {
                indegree[e.to.index()] -= 1;
                if indegree[e.to.index()] == 0 {
                    ready.insert(e.to);
                }
            }
        }
    }
    order
}

struct Builder<'a, 'f> {
    db: &'a ProgramDb,
    ocg: &'a Ocg,
    cluster: &'a TestCluster,
    factory: &'a TestFactory<'f>,
    config: &'a TemplateConfig,
    test: TestCase,
    vals: BTreeMap<NodeId, Val>,
    generated: usize,
}

impl Builder<'_, '_> {
    /// Where statements go: just before the final call of the method under test.
    fn pos(&self) -> usize {
        self.test.len() - 1
    }

    fn call(&self) -> &Statement {
        &self.test.statements[self.test.len() - 1]
    }

    /// The graph inputs are the final call's receiver and arguments (Algorithm 1, lines 15–17).
    fn bind_inputs(&mut self) {
        let (receiver, args) = match self.call() {
            Statement::Method { receiver, args, .. } => (*receiver, args.clone()),
            _ => return,
        };
        for (i, node) in self.ocg.nodes().iter().enumerate() {
            let v = match node.kind {
                NodeKind::Input(Input::Receiver) => receiver,
                NodeKind::Input(Input::Param { index }) => args.get(index as usize).copied(),
                _ => None,
            };
            if let Some(v) = v {
                self.vals.insert(NodeId(i as u32), Val::Var(v));
                self.generated += 1;
            }
        }
    }

    /// The variable of `n`'s parent in `role`, if it has one.
    fn parent(&self, n: NodeId, role: Role) -> Option<Val> {
        self.ocg.parents(n).filter(|e| e.role == role).find_map(|e| self.vals.get(&e.from).copied())
    }

    fn parent_var(&self, n: NodeId, role: Role) -> Option<VarId> {
        match self.parent(n, role)? {
            Val::Var(v) => Some(v),
            Val::ArrayField { .. } => None,
        }
    }

    fn generate(&mut self, n: NodeId, rng: &mut TestRng) -> Option<Val> {
        match self.ocg.get(n).kind.clone() {
            NodeKind::Input(_) => None,
            // A move (load, store, cast) reuses its value's variable; arithmetic on the way to the
            // branch (`Operand` edges) computes a new value that no variable of the test holds.
            NodeKind::PassThrough => self
                .ocg
                .parents(n)
                .filter(|e| e.role == Role::AssignedValue)
                .find_map(|e| self.vals.get(&e.from).copied()),
            NodeKind::Call { name, descriptor, is_static, owner } => {
                self.call_node(n, &owner, &name, &descriptor, is_static, rng).map(Val::Var)
            }
            NodeKind::Field { is_static: true, .. } => None,
            NodeKind::Field { owner, name, descriptor, .. } => {
                self.field_node(n, &owner, &name, &descriptor, rng)
            }
            NodeKind::ArrayElement { .. } => self.element_node(n, rng).map(Val::Var),
        }
    }

    /// `v = receiver.m(args)`; a static call `v = C.m(args)`.
    fn call_node(
        &mut self,
        n: NodeId,
        owner: &str,
        name: &str,
        descriptor: &str,
        is_static: bool,
        rng: &mut TestRng,
    ) -> Option<VarId> {
        let receiver = if is_static { None } else { Some(self.parent_var(n, Role::Receiver)?) };
        let class = match receiver {
            Some(r) => self.test.var_type(r)?.class_name()?.to_owned(),
            None => ClassName::from_internal(owner).binary(),
        };
        let g = self.cluster.callable(&class, CallableKind::Method, name, descriptor)?;
        let mut fixed = Vec::new();
        for e in self.ocg.parents(n) {
            if let (Role::Arg(k), Some(Val::Var(v))) = (e.role, self.vals.get(&e.from)) {
                let k = k as usize;
                fixed.resize(fixed.len().max(k + 1), None);
                fixed[k] = Some(*v);
            }
        }
        // The graph's argument may not fit the parameter (a value the slicer saw through a
        // conversion): then the call gets arguments of its own.
        let v = self
            .insert_checked(&g, receiver, &fixed, rng)
            .or_else(|| self.insert_checked(&g, receiver, &[], rng))?;
        // A void call yields a statement but no value for children.
        g.ret.as_ref().map(|_| v)
    }

    fn field_node(
        &mut self,
        n: NodeId,
        owner: &str,
        name: &str,
        descriptor: &str,
        rng: &mut TestRng,
    ) -> Option<Val> {
        let object = self.parent_var(n, Role::Owner)?;
        let slot = FieldSlot {
            owner: owner.to_owned(),
            name: name.to_owned(),
            descriptor: descriptor.to_owned(),
            element: false,
        };
        if descriptor.starts_with('[') && !self.ocg.is_leaf(n) {
            return Some(Val::ArrayField { node: n, owner: object });
        }
        let class = self.test.var_type(object)?.class_name()?.to_owned();
        if self.ocg.is_leaf(n) {
            if let Some(v) = self.public_write(&class, &slot, object, rng) {
                return Some(Val::Var(v));
            }
            return self.install(object, &class, &slot, None, rng).map(Val::Var);
        }
        self.install(object, &class, &slot, None, rng)
            .or_else(|| self.get(object, &class, &slot, rng))
            .map(Val::Var)
    }

    fn element_node(&mut self, n: NodeId, rng: &mut TestRng) -> Option<VarId> {
        let Val::ArrayField { node, owner } = self.parent(n, Role::ArrayRef)? else { return None };
        let NodeKind::Field { owner: declared, name, descriptor: array, .. } = &self.ocg.get(node).kind
        else {
            return None;
        };
        let slot = FieldSlot {
            owner: declared.clone(),
            name: name.clone(),
            descriptor: array.clone(),
            element: true,
        };
        let index = self.parent_var(n, Role::ArrayIndex);
        let class = self.test.var_type(owner)?.class_name()?.to_owned();
        self.install(owner, &class, &slot, index, rng)
    }

    /// The value a write of `slot` installs, inserted at `*pos`: a slot (a random primitive or
    /// string constant, which the search then mutates) or a fresh object.
    fn value(&mut self, slot: &FieldSlot, pos: &mut usize, rng: &mut TestRng) -> Option<VarId> {
        let ty = written_type(slot)?;
        let d = if slot.element { &slot.descriptor[1..] } else { slot.descriptor.as_str() };
        if crate::graph::is_slot(d) {
            let st = self.factory.random_constant(&ty, rng);
            let v = self.test.insert(*pos, st);
            *pos += 1;
            return Some(v);
        }
        self.factory.insert_value(&mut self.test, pos, &ty, rng)
    }

    /// `object.f = value` for a public, writable field: the cluster offers the write.
    fn public_write(
        &mut self,
        class: &str,
        slot: &FieldSlot,
        object: VarId,
        rng: &mut TestRng,
    ) -> Option<VarId> {
        let g = self.cluster.callable(class, CallableKind::FieldSet, &slot.name, &slot.descriptor)?;
        let backup = self.test.clone();
        let mut pos = self.pos();
        let value = self.value(slot, &mut pos, rng)?;
        let ok = self
            .factory
            .insert_call_with(&mut self.test, &mut pos, &g, Some(object), &[Some(value)], rng)
            .is_some_and(|v| self.valid(v));
        if !ok {
            self.test = backup;
            return None;
        }
        Some(value)
    }

    /// Calls a setter of `slot` on `object`, sampled by Eq. (1), with a new value (`value`) as
    /// its first value parameter and `index` as its first index parameter (an element). Returns
    /// the value's variable.
    fn install(
        &mut self,
        object: VarId,
        class: &str,
        slot: &FieldSlot,
        index: Option<VarId>,
        rng: &mut TestRng,
    ) -> Option<VarId> {
        let (a, g) = self.choose(class, slot, access::Access::Set, rng)?;
        let backup = self.test.clone();
        let mut pos = self.pos();
        let mut fixed: Vec<Option<VarId>> = vec![None; g.params.len()];
        // A value is made only when the setter passes a parameter through as the written value;
        // an indirect setter (`install(slot, capacity)` storing `new Shelf(capacity)`) makes it.
        let value = match a.direct_value_param.and_then(|k| fixed.get(k as usize).map(|_| k)) {
            Some(k) => {
                let v = self.value(slot, &mut pos, rng)?;
                fixed[k as usize] = Some(v);
                Some(v)
            }
            None => None,
        };
        let index = index.filter(|&i| self.test.var_type(i).is_some_and(|t| t.is_primitive()));
        if let (Some(i), Some(f)) = (index, a.direct_index_param.and_then(|k| fixed.get_mut(k as usize))) {
            *f = Some(i);
        }
        let call = self.factory.insert_call_with(&mut self.test, &mut pos, &g, Some(object), &fixed, rng);
        let Some(call) = call.filter(|&v| self.valid(v)) else {
            self.test = backup;
            return None;
        };
        Some(value.unwrap_or(call))
    }

    /// Whether the statement of `v` is valid where it is (its uses fit its parameters).
    fn valid(&self, v: VarId) -> bool {
        testcase::validity::check_statement(&self.test, v.index(), self.cluster).is_ok()
    }

    /// Inserts a call before the final one with the given receiver and fixed arguments; `None`,
    /// the test as it was, when the call cannot be made or is not valid.
    fn insert_checked(
        &mut self,
        g: &Arc<GenericCallable>,
        receiver: Option<VarId>,
        fixed: &[Option<VarId>],
        rng: &mut TestRng,
    ) -> Option<VarId> {
        let backup = self.test.clone();
        let mut pos = self.pos();
        let v = self.factory.insert_call_with(&mut self.test, &mut pos, g, receiver, fixed, rng);
        match v.filter(|&v| self.valid(v)) {
            Some(v) => Some(v),
            None => {
                self.test = backup;
                None
            }
        }
    }

    /// A setter or getter of `slot` on an object of `class` that the cluster offers, sampled by
    /// Eq. (1) (`access::sample`), with its callable.
    fn choose(
        &self,
        class: &str,
        slot: &FieldSlot,
        kind: access::Access,
        rng: &mut TestRng,
    ) -> Option<(access::Accessor, Arc<GenericCallable>)> {
        let internal = ClassName::from_binary(class).into_internal();
        let mut candidates: Vec<(access::Accessor, Arc<GenericCallable>)> =
            access::accessors(self.db, &internal, slot, kind, &self.config.access)
                .into_iter()
                .filter_map(|a| {
                    let (name, descriptor) = method_text(self.db, a.method)?;
                    let g = self.cluster.callable(class, CallableKind::Method, &name, &descriptor)?;
                    Some((a, g))
                })
                .collect();
        let accessors: Vec<access::Accessor> = candidates.iter().map(|(a, _)| a.clone()).collect();
        let chosen = access::sample(&accessors, uniform(rng))?.method;
        let at = candidates.iter().position(|(a, _)| a.method == chosen)?;
        Some(candidates.swap_remove(at))
    }

    /// `v = object.getF()`, a getter sampled by Eq. (1).
    fn get(&mut self, object: VarId, class: &str, slot: &FieldSlot, rng: &mut TestRng) -> Option<VarId> {
        let (_, g) = self.choose(class, slot, access::Access::Get, rng)?;
        self.insert_checked(&g, Some(object), &[], rng)
    }
}

/// The type of what a setter of `slot` writes: the field's type, or its element type.
fn written_type(slot: &FieldSlot) -> Option<JType> {
    let d = if slot.element { slot.descriptor.strip_prefix('[')? } else { slot.descriptor.as_str() };
    parse_field_type(d).ok()
}

/// A method's name and descriptor.
fn method_text(db: &ProgramDb, m: programdb::MethodId) -> Option<(String, String)> {
    let class = db.class(m.class()).ok()?;
    let member = db.member(m)?;
    Some((
        member.name(&class.constant_pool)?.into_owned(),
        member.descriptor(&class.constant_pool)?.into_owned(),
    ))
}

/// A draw in [0, 1) from the template's generator.
fn uniform(rng: &mut TestRng) -> f64 {
    use rand::RngExt;
    rng.random::<f64>()
}
