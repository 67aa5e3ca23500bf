//! Type variables in the cluster's queries: instantiating a generic callable for a receiver or a
//! wanted type (unification, then the free variables bound within their bounds, JLS §4.5), the
//! well-formedness and bound checks javac applies, the supertype view `as_super`, and the
//! parameterization a generic target class is tested as.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::{CallableKind, Creation, GenericCallable, Instantiated, TestCluster};
use crate::statement::CLASS;
use crate::types::{JType, OBJECT, TypeArg, TypeParam};

/// Binds the type variables of `pattern` so that it matches `actual` (first binding wins).
/// Wildcard arguments of `actual` bind to their bound.
pub(super) fn unify(pattern: &JType, actual: &JType, map: &mut BTreeMap<String, JType>) {
    match (pattern, actual) {
        (JType::Var(v), a) if !a.is_primitive() && !matches!(a, JType::Var(_)) => {
            map.entry(v.clone()).or_insert_with(|| a.clone());
        }
        (JType::Array(p), JType::Array(a)) => unify(p, a, map),
        (JType::Class { name: pn, args: pa }, JType::Class { name: an, args: aa })
            if pn == an && pa.len() == aa.len() =>
        {
            for (p, a) in pa.iter().zip(aa) {
                let p = match p {
                    TypeArg::Exact(t) | TypeArg::Extends(t) | TypeArg::Super(t) => t,
                    TypeArg::Any => continue,
                };
                match a {
                    TypeArg::Exact(t) | TypeArg::Extends(t) | TypeArg::Super(t) => unify(p, t, map),
                    TypeArg::Any => {}
                }
            }
        }
        _ => {}
    }
}

/// Cuts type arguments nested deeper than `depth` (they become raw), so that recursive generic
/// types (`Comparable<T extends Comparable<T>>`) stay finite.
pub(super) fn limit_depth(t: &JType, depth: u32) -> JType {
    match t {
        JType::Class { name, args } => {
            if depth == 0 {
                return JType::class(name);
            }
            JType::Class {
                name: name.clone(),
                args: args
                    .iter()
                    .map(|a| match a {
                        TypeArg::Any => TypeArg::Any,
                        TypeArg::Exact(t) => TypeArg::Exact(limit_depth(t, depth - 1)),
                        TypeArg::Extends(t) => TypeArg::Extends(limit_depth(t, depth - 1)),
                        TypeArg::Super(t) => TypeArg::Super(limit_depth(t, depth - 1)),
                    })
                    .collect(),
            }
        }
        JType::Array(c) => JType::array_of(limit_depth(c, depth)),
        _ => t.clone(),
    }
}

/// Replaces the remaining type variables (those `finish` could not bind, from an enclosing scope
/// we do not track) by Object, then cuts type arguments nested deeper than `max_depth`.
pub(super) fn close(t: &JType, max_depth: u32) -> JType {
    let res = if t.has_vars() { erase_vars(t) } else { t.clone() };
    limit_depth(&res, max_depth)
}

/// How a raw type is judged against a parameterized bound (`Comparable` against `Comparable<?>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Raw {
    /// Not within it: the variable is a class's, and the type argument appears in a declared type
    /// (javac: "type argument Comparable is not within bounds of type-variable K", JLS §4.5).
    Rejected,
    /// Within it by unchecked conversion: the variable is a method's, inferred by javac, which
    /// accepts `Range<Comparable> r = Range.closed(a, b)` for `<C extends Comparable<?>>` with a
    /// warning (JLS §18.2.2), as it did before bounds were checked.
    Unchecked,
}

/// The types tried, after a variable's erased bound, for a type variable that nothing binds and
/// whose erased bound is not within its bounds (`E extends Comparable<E>`): EvoSuite's default cast
/// classes (`CastClassManager`), which the factory can create as constants.
pub(super) const CAST_CLASSES: [&str; 2] = ["java.lang.String", "java.lang.Integer"];

/// The enum a variable bounded by `Enum` (`E extends Enum<E>`: `EnumSet.noneOf(Class<E>)`,
/// `EnumUtils.getEnum(Class<E>, String)`) is bound to when the cluster has no enum of its own: a
/// JDK enum, always loadable. `Enum` itself is not within such a bound, and as a class literal it
/// only makes the call throw ("not an enum type").
pub(super) const FALLBACK_ENUM: &str = "java.util.concurrent.TimeUnit";

/// The method type variable `X` if parameter `p` of `g` is `Class<X>` and `X` occurs nowhere else
/// in the parameters, and in the result not at all or as the whole result, and is bounded by a
/// closed type other than `Enum` (Guava's `<X extends Throwable> throwIfInstanceOf(Throwable,
/// Class<X>)`, `<T> Defaults.defaultValue(Class<T>)`). Such a parameter can take the literal of
/// any class within the bound, not only of the one the variable is bound to: `substitute` makes
/// it `Class<? extends binding>`.
pub(super) fn class_only_var<'g>(g: &'g GenericCallable, p: &JType) -> Option<&'g str> {
    let JType::Class { name, args } = p else { return None };
    let [TypeArg::Exact(JType::Var(x))] = args.as_slice() else { return None };
    let tp = g.type_params.iter().find(|t| &t.name == x)?;
    if name != CLASS || enum_bounded(tp) || tp.bounds.iter().any(JType::has_vars) {
        return None;
    }
    let occurrences: usize = g.params.iter().map(|q| var_occurrences(q, x)).sum();
    let ret_ok = g.ret.as_ref().is_none_or(|r| *r == JType::Var(x.clone()) || var_occurrences(r, x) == 0);
    (occurrences == 1 && ret_ok).then_some(tp.name.as_str())
}

/// How often type variable `x` occurs in `t`.
pub(super) fn var_occurrences(t: &JType, x: &str) -> usize {
    match t {
        JType::Prim(_) => 0,
        JType::Var(v) => usize::from(v == x),
        JType::Array(c) => var_occurrences(c, x),
        JType::Class { args, .. } => args
            .iter()
            .map(|a| match a {
                TypeArg::Any => 0,
                TypeArg::Exact(t) | TypeArg::Extends(t) | TypeArg::Super(t) => var_occurrences(t, x),
            })
            .sum(),
    }
}

/// Whether type variable `p` is bounded by `Enum`.
pub(super) fn enum_bounded(p: &TypeParam) -> bool {
    p.erased_bound().class_name() == Some("java.lang.Enum")
}

pub(super) fn erase_vars(t: &JType) -> JType {
    t.map_vars(&|_| Some(JType::object()))
}

impl TestCluster {
    /// The generic supertype of `ty` whose class is `target` (`ArrayList<String>` as `List` is
    /// `List<String>`), through the generic superclass and superinterface signatures. Raw in, raw
    /// out.
    pub fn as_super(&self, ty: &JType, target: &str) -> Option<JType> {
        let mut work = vec![ty.clone()];
        let mut seen = BTreeSet::new();
        while let Some(t) = work.pop() {
            let JType::Class { name, args } = &t else { continue };
            if name == target {
                return Some(t.clone());
            }
            if !seen.insert(name.clone()) {
                continue;
            }
            let Some(h) = self.hierarchy.get(name) else { continue };
            let mut map = BTreeMap::new();
            // A non-generic class (`String`) is not raw: its supertypes keep their arguments
            // (`Comparable<String>`), which bound checks compare.
            let raw = !h.type_params.is_empty() && (args.is_empty() || args.len() != h.type_params.len());
            if !raw {
                for (p, a) in h.type_params.iter().zip(args) {
                    let a = match a {
                        TypeArg::Exact(t) | TypeArg::Extends(t) | TypeArg::Super(t) => t.clone(),
                        TypeArg::Any => p.erased_bound(),
                    };
                    map.insert(p.name.clone(), a);
                }
            }
            for s in &h.supers {
                work.push(if raw { s.erasure() } else { s.subst(&map) });
            }
        }
        if target == OBJECT { Some(JType::object()) } else { None }
    }

    /// Resolves a callable for a receiver of type `recv` (or, for static members and
    /// constructors, with no receiver): class variables from the receiver's type arguments,
    /// method variables and the rest by their bounds.
    ///
    /// Without a receiver, a member of a target class (the CUT or a member class of it) that needs
    /// one, and a target class's constructor, use the target type `target_type` chose, so that the
    /// receiver a test creates has a generator within bounds.
    pub fn instantiate(&self, g: &Arc<GenericCallable>, recv: Option<&JType>) -> Instantiated {
        let chosen;
        let recv = match recv {
            None if g.needs_receiver() || g.kind == CallableKind::Constructor => {
                chosen = g.receiver.class_name().and_then(|c| self.target_types.get(c)).cloned();
                chosen.as_ref()
            }
            r => r,
        };
        let mut map = BTreeMap::new();
        if let Some(r) = recv {
            if let Some(view) = self.as_super(r, &g.class) {
                unify(&g.owner, &view, &mut map);
            }
            unify(&g.receiver, r, &mut map);
        }
        self.finish(g, map)
    }

    /// Binds the variables `map` leaves free (`choose_unbound`) and substitutes. A method variable
    /// first gets its erased bound even where only unchecked conversion makes it fit (as before
    /// bounds were checked); if that makes a parameter or the result ill-formed (a raw
    /// `Comparable` for `FrozenSpanMap<K extends Comparable<?>, V>`), it is chosen strictly.
    pub(super) fn finish(&self, g: &Arc<GenericCallable>, map: BTreeMap<String, JType>) -> Instantiated {
        let mut lax = map.clone();
        self.choose_unbound(&g.class_params, Raw::Rejected, &mut lax);
        let mut strict = lax.clone();
        self.choose_unbound(&g.type_params, Raw::Unchecked, &mut lax);
        let inst = self.substitute(g, &lax);
        if g.type_params.is_empty() || inst.ret.iter().chain(&inst.params).all(|t| self.well_formed(t)) {
            return inst;
        }
        self.choose_unbound(&g.type_params, Raw::Rejected, &mut strict);
        self.substitute(g, &strict)
    }

    pub(super) fn substitute(&self, g: &Arc<GenericCallable>, map: &BTreeMap<String, JType>) -> Instantiated {
        let d = self.config.max_generic_depth;
        let sub = |t: &JType| close(&t.subst(map), d);
        let params = g
            .params
            .iter()
            .map(|p| match class_only_var(g, p) {
                // javac infers the variable from the literal; the result, `X` or none, is still
                // assignable to the binding.
                Some(x) => JType::Class {
                    name: CLASS.to_string(),
                    args: vec![TypeArg::Extends(sub(&JType::Var(x.to_string())))],
                },
                None => sub(p),
            })
            .collect();
        Instantiated {
            callable: g.clone(),
            owner: if g.needs_receiver() { sub(&g.receiver) } else { sub(&g.owner) },
            params,
            ret: g.ret.as_ref().map(sub),
        }
    }

    /// Whether the bindings of `g`'s variables in `map` are within their bounds: the class's
    /// strictly (they become declared types), the method's as javac's inference checks them.
    pub(super) fn callable_within_bounds(&self, g: &GenericCallable, map: &BTreeMap<String, JType>) -> bool {
        self.within_bounds(&g.class_params, Raw::Rejected, map)
            && self.within_bounds(&g.type_params, Raw::Unchecked, map)
    }

    /// Binds every variable of `params` that `map` leaves free, in declaration order, to the first
    /// of its erased bound, `String` and `Integer` that keeps all bounds satisfied (JLS §4.5: the
    /// erased bound fails F-bounds such as `E extends Comparable<E>` in a declared type, where
    /// `String` fits), or to its erased bound when none does. Variables bound later are read as
    /// Object by the check of earlier ones.
    pub(super) fn choose_unbound(&self, params: &[TypeParam], raw: Raw, map: &mut BTreeMap<String, JType>) {
        for p in params {
            if map.contains_key(&p.name) {
                continue;
            }
            let erased = p.erased_bound();
            let cands = self.binding_candidates(p);
            let fits = |c: &JType| {
                let mut m = map.clone();
                m.insert(p.name.clone(), c.clone());
                self.param_within_bounds(p, raw, &m)
            };
            // A bound naming a variable bound already (`<E extends T> E max(E, E)` of an
            // `Ordering<Range<Comparable>>`) is what fits when none of the candidates does: the
            // erased bound, Object, would make javac reject `max((Object) a, (Object) b)`.
            // Computed only when no candidate fits: `instantiate` runs per inserted call.
            let bound = || {
                p.bounds
                    .first()
                    .map(|b| close(&b.subst(map), self.config.max_generic_depth))
                    .filter(|b| !b.has_vars() && fits(b))
            };
            let chosen = cands.iter().find(|c| fits(c)).cloned().or_else(bound).unwrap_or(erased);
            map.insert(p.name.clone(), chosen);
        }
    }

    /// The classes a free variable `p` may be bound to, in preference order: its erased bound,
    /// then the cast classes; for an `Enum` bound, first the cluster's enums and `FALLBACK_ENUM`
    /// (raw `Enum` passes a method variable's bound by unchecked conversion, but no value of it
    /// is an enum constant).
    pub(super) fn binding_candidates(&self, p: &TypeParam) -> Vec<JType> {
        let mut cands = Vec::new();
        if enum_bounded(p) {
            cands.extend(self.enums.keys().map(|c| JType::class(c)));
            cands.push(JType::class(FALLBACK_ENUM));
        }
        cands.push(p.erased_bound());
        cands.extend(CAST_CLASSES.iter().map(|c| JType::class(c)));
        let mut seen = BTreeSet::new();
        cands.retain(|c| seen.insert(c.clone()));
        cands
    }

    /// Whether the binding of `p` in `map` is within `p`'s bounds, each bound read with `map`
    /// (JLS §4.5: `T <: B[A1:=T1, ..., An:=Tn]`). An unbound variable passes.
    pub(super) fn param_within_bounds(&self, p: &TypeParam, raw: Raw, map: &BTreeMap<String, JType>) -> bool {
        let Some(t) = map.get(&p.name) else { return true };
        let t = close(t, u32::MAX);
        p.bounds.iter().all(|b| self.within_bound(&t, &close(&b.subst(map), u32::MAX), raw))
    }

    /// Whether every variable of `params` bound in `map` is within its bounds.
    pub(super) fn within_bounds(
        &self,
        params: &[TypeParam],
        raw: Raw,
        map: &BTreeMap<String, JType>,
    ) -> bool {
        params.iter().all(|p| self.param_within_bounds(p, raw, map))
    }

    /// Whether `t` is a well-formed type (JLS §4.5): each type argument of each parameterized class
    /// in it is within the bounds of the class's type parameter. javac rejects a declaration of
    /// `ImmutableRangeMap<Comparable, V>` for `K extends Comparable<?>` however the value was made.
    pub(super) fn well_formed(&self, t: &JType) -> bool {
        match t {
            JType::Prim(_) | JType::Var(_) => true,
            JType::Array(c) => self.well_formed(c),
            JType::Class { name, args } => {
                let inner_ok = args.iter().all(|a| match a {
                    TypeArg::Any => true,
                    TypeArg::Exact(x) | TypeArg::Extends(x) | TypeArg::Super(x) => self.well_formed(x),
                });
                let Some(h) = self.hierarchy.get(name) else { return inner_ok };
                if !inner_ok || args.len() != h.type_params.len() {
                    return inner_ok;
                }
                // Only exact arguments are checked: a wildcard's capture is within bounds by
                // construction (JLS §5.1.10).
                let map: BTreeMap<String, JType> = h
                    .type_params
                    .iter()
                    .zip(args)
                    .filter_map(|(p, a)| match a {
                        TypeArg::Exact(x) => Some((p.name.clone(), x.clone())),
                        _ => None,
                    })
                    .collect();
                self.within_bounds(&h.type_params, Raw::Rejected, &map)
            }
        }
    }

    /// Subtyping of a type argument against a bound (JLS §4.10.2), stricter than
    /// `types::is_assignable`: type arguments are compared through the supertype of `t` whose
    /// class is the bound's (`String` as `Comparable` is `Comparable<String>`). What a raw
    /// supertype against a parameterized bound gives is `raw`'s to say.
    pub(super) fn within_bound(&self, t: &JType, bound: &JType, raw: Raw) -> bool {
        match (t, bound) {
            (_, JType::Var(_)) => true,
            (JType::Prim(_), _) | (_, JType::Prim(_)) => false,
            (JType::Var(_), JType::Class { name, .. }) => name == OBJECT,
            (JType::Array(_), JType::Class { name, .. }) => {
                name == OBJECT || name == "java.lang.Cloneable" || name == "java.io.Serializable"
            }
            (JType::Array(a), JType::Array(b)) => match (a.as_ref(), b.as_ref()) {
                (JType::Prim(x), JType::Prim(y)) => x == y,
                (x, y) => self.within_bound(x, y, raw),
            },
            (JType::Class { .. } | JType::Var(_), JType::Array(_)) => false,
            (JType::Class { name: tname, .. }, JType::Class { name, args }) => {
                // A class whose hierarchy was never loaded cannot be judged: accepted, as before
                // bounds were checked.
                if name == OBJECT || !self.hierarchy.contains(tname) {
                    return true;
                }
                let Some(JType::Class { args: targs, .. }) = self.as_super(t, name) else { return false };
                if args.is_empty() {
                    return true;
                }
                if targs.is_empty() || targs.len() != args.len() {
                    return raw == Raw::Unchecked;
                }
                targs.iter().zip(args).all(|(ta, ba)| self.arg_within(ta, ba, raw))
            }
        }
    }

    /// Type-argument containment (JLS §4.5.1) of a supertype's argument `ta` in a bound's `ba`.
    pub(super) fn arg_within(&self, ta: &TypeArg, ba: &TypeArg, raw: Raw) -> bool {
        match (ta, ba) {
            (_, TypeArg::Any) => true,
            (TypeArg::Exact(x), TypeArg::Exact(y)) => x == y,
            (TypeArg::Exact(x) | TypeArg::Extends(x), TypeArg::Extends(y)) => self.within_bound(x, y, raw),
            (TypeArg::Any, TypeArg::Extends(y)) => y.class_name() == Some(OBJECT),
            (TypeArg::Exact(x) | TypeArg::Super(x), TypeArg::Super(y)) => self.within_bound(y, x, raw),
            _ => false,
        }
    }

    /// The parameterization a target class with type parameters is tested as (`MinMaxPriorityQueue`
    /// as `MinMaxPriorityQueue<String>`). EvoSuite draws a type argument for each variable from its
    /// cast classes (Object, String, Integer) within the variable's bounds; here each combination
    /// of the erased bound, `String` and `Integer` within bounds is scored by how many generators
    /// can produce it within their own bounds, and the best one kept (ties: the earliest, which is
    /// the erased bounds, i.e. the type as before). An unbounded class parameter can be Object for
    /// the class itself while its static factories need `E extends Comparable<E>`; Object would
    /// leave the tests without a receiver javac accepts.
    pub(super) fn target_type(&self, class: &str) -> Option<JType> {
        let params = &self.hierarchy.get(class)?.type_params;
        if params.is_empty() {
            return None;
        }
        // Up to three candidates per variable; classes with many variables try the erased bounds
        // only beyond 27 combinations.
        let per_var: Vec<Vec<JType>> = params.iter().map(|p| self.binding_candidates(p)).collect();
        let combos: usize = per_var.iter().map(Vec::len).product();
        let mut best: Option<(usize, JType)> = None;
        for k in 0..combos.min(27) {
            let mut rest = k;
            let mut map = BTreeMap::new();
            for (p, cands) in params.iter().zip(&per_var) {
                map.insert(p.name.clone(), cands[rest % cands.len()].clone());
                rest /= cands.len();
            }
            if !self.within_bounds(params, Raw::Rejected, &map) {
                continue;
            }
            let args = params.iter().map(|p| TypeArg::Exact(map[&p.name].clone())).collect();
            let ty = JType::Class { name: class.to_string(), args };
            let score = self.creations(&ty).iter().filter(|c| matches!(c, Creation::Call(_))).count();
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, ty));
            }
        }
        best.map(|(_, t)| t)
    }

    /// Instantiates generator `g` so that its result, seen as class `name`, matches `want`.
    pub(super) fn instantiate_for(
        &self,
        g: &Arc<GenericCallable>,
        want: &JType,
        name: &str,
    ) -> Option<Instantiated> {
        let ret = g.ret.as_ref()?;
        let view = self.as_super(ret, name)?;
        let mut map = BTreeMap::new();
        unify(&view, want, &mut map);
        // The bindings `want` forces must be within the variables' bounds (JLS §18.1.3: javac
        // rejects `MinMaxPriorityQueue<Object> q = MinMaxPriorityQueue.create()` for
        // `<E extends Comparable<E>>`), and so must those `finish` chooses.
        let mut full = map.clone();
        self.choose_unbound(&g.class_params, Raw::Rejected, &mut full);
        self.choose_unbound(&g.type_params, Raw::Unchecked, &mut full);
        if !self.callable_within_bounds(g, &full) {
            return None;
        }
        let inst = self.finish(g, map);
        let produced = inst.ret.as_ref()?;
        // The value is declared with the produced type, which must be well-formed too.
        (self.well_formed(produced) && crate::types::is_assignable(self, produced, want)).then_some(inst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn unify_binds_through_arguments() {
        let pat = crate::types::parse_field_type("Ljava/util/List<TE;>;").unwrap();
        let act = crate::types::parse_field_type("Ljava/util/List<+Ljava/lang/String;>;").unwrap();
        let mut m = BTreeMap::new();
        unify(&pat, &act, &mut m);
        assert_eq!(m.get("E"), Some(&JType::string()));
    }
}
