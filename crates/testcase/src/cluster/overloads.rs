//! Overloads a written call cannot select: javac finds the call ambiguous (JLS §15.12.2.5) whatever
//! casts the renderer writes, so every test calling one is dropped as uncompilable after the search
//! spent its evaluations on it. Commons Collections' `DefaultedMap` has `<K, V> defaultedMap(Map<K,
//! V>, V)` and `<K, V> defaultedMap(Map<K, V>, Transformer<? super K, ? extends V>)`: with the
//! arguments cast to `(Map)` and `(Transformer)`, both are applicable, and neither is more specific
//! (the first's `V` is bound by the map, so a `Transformer` argument does not make it more
//! specific, and `V` is no `Transformer`); `MapUtils` lost 44 tests at 30 s. An explicit type
//! witness that makes the sibling inapplicable would name the call; until the renderer writes one,
//! such a method is left out of the cluster.

use super::GenericCallable;
use crate::types::{JType, OBJECT, TypeArg};

/// The indices of the methods of `members` that some sibling (same name and number of
/// parameters) makes ambiguous: at some position the sibling takes a bare type variable of its
/// own, bounded by `Object` and also occurring in another of its parameters where the method
/// has a type variable of its own, and the method takes a class or an array; at every other
/// position the sibling accepts what the method takes
/// (the same erasure, `Object`, or a type variable). Conservative: it finds the `defaultedMap`
/// shape, not every ambiguity (`MapUtils.populateMap(MultiMap, ..)` against `populateMap(Map, ..)`
/// needs the generic supertypes, which the cluster knows only after its walk).
pub(crate) fn ambiguous(members: &[GenericCallable]) -> Vec<usize> {
    (0..members.len())
        .filter(|&i| {
            let g = &members[i];
            members.iter().enumerate().any(|(j, s)| {
                j != i
                    && s.name == g.name
                    && s.kind == g.kind
                    && s.params.len() == g.params.len()
                    && s.descriptor != g.descriptor
                    && makes_ambiguous(g, s)
            })
        })
        .collect()
}

fn makes_ambiguous(g: &GenericCallable, s: &GenericCallable) -> bool {
    let own_var = |t: &JType| match t {
        JType::Var(v) => {
            s.type_params.iter().find(|p| &p.name == v).filter(|p| p.erased_bound() == JType::object())
        }
        _ => None,
    };
    (0..s.params.len()).any(|i| {
        let Some(var) = own_var(&s.params[i]) else { return false };
        matches!(g.params[i], JType::Class { .. } | JType::Array(_))
            // The sibling's variable is bound by another parameter where the method has a
            // variable of its own (`Map<K, V>` in both), so the method's class type is no
            // instance of it: were it `Map<String, String>`, the method would be more specific.
            && s.params.iter().zip(&g.params).enumerate().any(|(j, (p, q))| {
                j != i && mentions(p, &var.name) && g.type_params.iter().any(|t| mentions(q, &t.name))
            })
            && (0..s.params.len()).all(|j| {
                j == i
                    // A variable takes a primitive only by boxing, which the strict phase of
                    // overload resolution (JLS §15.12.2.2) does not do.
                    || matches!(s.params[j], JType::Var(_)) && !matches!(g.params[j], JType::Prim(_))
                    || s.params[j].erasure() == g.params[j].erasure()
                    || s.params[j].erasure() == JType::class(OBJECT) && !matches!(g.params[j], JType::Prim(_))
            })
    })
}

/// Whether `t` mentions the type variable `var`.
fn mentions(t: &JType, var: &str) -> bool {
    match t {
        JType::Var(v) => v == var,
        JType::Array(c) => mentions(c, var),
        JType::Prim(_) => false,
        JType::Class { args, .. } => args.iter().any(|a| match a {
            TypeArg::Any => false,
            TypeArg::Exact(t) | TypeArg::Extends(t) | TypeArg::Super(t) => mentions(t, var),
        }),
    }
}
