//! Method and field resolution and selection (`ProgramDb::resolve_method`, `select`,
//! `invoke_target`, `resolve_field`) and the generic supertypes, on the `resolution` fixtures
//! (with java.base, for `Object`). Each expectation says which JVMS rule gives it.

use std::path::PathBuf;

use programdb::{InvokeKind, MethodId, ProgramDb, SelectError};

const STRING: &str = "()Ljava/lang/String;";

fn db() -> ProgramDb {
    let paths: Vec<PathBuf> =
        vec![test_support::fixture_classes("resolution"), test_support::java_base_jmod()];
    test_support::open_db(&paths)
}

fn class(db: &ProgramDb, name: &str) -> programdb::ClassId {
    db.class_id(&format!("resolution/{name}")).unwrap_or_else(|| panic!("fixture {name}"))
}

/// The method `name` + `descriptor` declared by fixture class `owner` (or `java/...`).
fn method(db: &ProgramDb, owner: &str, name: &str, descriptor: &str) -> MethodId {
    let c = db.class_id(owner).unwrap_or_else(|| class(db, owner));
    db.declared_method(c, name, descriptor).unwrap_or_else(|| panic!("{owner}.{name} declared"))
}

/// `invoke_target` of a virtual or interface call naming fixture `owner`, on a `receiver`.
fn target(
    db: &ProgramDb,
    kind: InvokeKind,
    owner: &str,
    name: &str,
    desc: &str,
    receiver: &str,
) -> Option<MethodId> {
    let owner = if owner.starts_with("java/") { owner.to_string() } else { format!("resolution/{owner}") };
    db.invoke_target(kind, &owner, name, desc, Some(class(db, receiver)))
}

fn resolve(db: &ProgramDb, owner: &str, name: &str, desc: &str) -> Option<MethodId> {
    db.resolve_method(&format!("resolution/{owner}"), name, desc)
}

#[test]
fn a_grand_superclass_method_wins_over_a_superinterface_default() {
    let db = db();
    let grand = method(&db, "Supers$GrandBase", "greet", STRING);
    // §5.4.3.3 step 2 walks all superclasses (Leaf, Middle, GrandBase) before step 3 looks at
    // superinterfaces, so `Greeter.greet`, one level up, loses to `GrandBase.greet`, two up.
    assert_eq!(resolve(&db, "Supers$Leaf", "greet", STRING), Some(grand));
    // §5.4.6: the superclass chain is searched before the maximally-specific default.
    assert_eq!(target(&db, InvokeKind::Virtual, "Supers$Leaf", "greet", STRING, "Supers$Leaf"), Some(grand));
    assert_eq!(
        target(&db, InvokeKind::Interface, "Supers$Greeter", "greet", STRING, "Supers$Leaf"),
        Some(grand)
    );
    let below = method(&db, "Supers$BelowLeaf", "greet", STRING);
    assert_eq!(
        target(&db, InvokeKind::Interface, "Supers$Greeter", "greet", STRING, "Supers$BelowLeaf"),
        Some(below)
    );
    // `super.greet()` in BelowLeaf is an invokespecial of `Leaf.greet`: resolution, as above.
    let sites = db.call_sites(below);
    let special = sites.iter().find(|s| s.name == "greet").expect("the super call");
    assert_eq!(special.targets, vec![grand]);
}

#[test]
fn a_static_superclass_method_does_not_override_an_interface_default() {
    let db = db();
    let default = method(&db, "Supers$Greeter", "greet", STRING);
    let stat = method(&db, "StaticBase", "greet", STRING);
    // §5.4.6 searches the superclasses for an instance method that can override; the static
    // `StaticBase.greet` cannot, so the default is selected.
    assert_eq!(
        target(&db, InvokeKind::Interface, "Supers$Greeter", "greet", STRING, "Statics$StaticLeaf"),
        Some(default)
    );
    // §5.4.3.3 step 2 does find the static method for a class reference...
    assert_eq!(resolve(&db, "Statics$StaticLeaf", "greet", STRING), Some(stat));
    // ...so an invokevirtual of it is an IncompatibleClassChangeError (§6.5): no target.
    assert_eq!(
        target(&db, InvokeKind::Virtual, "Statics$StaticLeaf", "greet", STRING, "Statics$StaticLeaf"),
        None
    );
    let virtual_site =
        method(&db, "Statics", "virtual", "(Lresolution/Statics$StaticLeaf;)Ljava/lang/String;");
    assert!(db.call_sites(virtual_site).iter().all(|s| s.targets.is_empty()));
    // While invokestatic of it is fine.
    assert_eq!(
        db.invoke_target(InvokeKind::Static, "resolution/StaticBase", "greet", STRING, None),
        Some(stat)
    );
}

#[test]
fn the_maximally_specific_default_wins_and_unrelated_defaults_conflict() {
    let db = db();
    let derived = method(&db, "Conflicts$Derived", "who", STRING);
    // `Diamond implements Base, Derived`: `Derived.who` overrides `Base.who` (Derived is a
    // subinterface of Base), so only it is maximally specific (§5.4.3.3), whatever the order
    // of the `implements` clause.
    assert_eq!(resolve(&db, "Conflicts$Diamond", "who", STRING), Some(derived));
    assert_eq!(
        target(&db, InvokeKind::Virtual, "Conflicts$Diamond", "who", STRING, "Conflicts$Diamond"),
        Some(derived)
    );
    // `Both implements Left, Right`, each with a default `side`: two maximally-specific
    // non-abstract methods. Resolution may pick either (§5.4.3.3 step 3); the first in
    // `supertypes` order is `Left`'s. Selection has no method to run: the JVM throws
    // IncompatibleClassChangeError (§5.4.6).
    let (left, right) = (method(&db, "Conflicts$Left", "side", STRING), method(&db, "Right", "side", STRING));
    assert_eq!(resolve(&db, "Conflicts$Both", "side", STRING), Some(left));
    let both = class(&db, "Conflicts$Both");
    assert_eq!(db.select(both, left), Err(SelectError::Conflict(vec![left, right].into_boxed_slice())));
    assert_eq!(target(&db, InvokeKind::Interface, "Conflicts$Left", "side", STRING, "Conflicts$Both"), None);
}

#[test]
fn a_private_method_is_never_overridden() {
    let db = db();
    let hidden = method(&db, "Privates$Secretive", "hidden", STRING);
    // §5.4.6 step 1: a private resolved method is the selected one, even for a `Nosy`, which
    // declares a public method of the same signature.
    assert_eq!(
        target(&db, InvokeKind::Virtual, "Privates$Secretive", "hidden", STRING, "Privates$Nosy"),
        Some(hidden)
    );
    let nosy = method(&db, "Privates$Nosy", "hidden", STRING);
    assert_eq!(
        target(&db, InvokeKind::Virtual, "Privates$Nosy", "hidden", STRING, "Privates$Nosy"),
        Some(nosy)
    );
    // The same for a private interface method called with invokeinterface from a default.
    let murmur = method(&db, "Privates$Quiet", "murmur", STRING);
    assert_eq!(
        target(&db, InvokeKind::Interface, "Privates$Quiet", "murmur", STRING, "Privates$Chatty"),
        Some(murmur)
    );
    let speak = method(&db, "Privates$Quiet", "speak", STRING);
    assert_eq!(db.call_sites(speak)[0].targets, vec![murmur]);
}

#[test]
fn an_abstract_class_reference_resolves_to_its_interfaces_method() {
    let db = db();
    let area = method(&db, "Abstracts$Shape", "area", "()D");
    // §5.4.3.3 step 3: `Polygon` and `Object` do not declare `area`; `Shape.area` is the one
    // (abstract) maximally-specific superinterface method.
    assert_eq!(resolve(&db, "Abstracts$Polygon", "area", "()D"), Some(area));
    // An abstract class runs nothing for it (AbstractMethodError)...
    let polygon = class(&db, "Abstracts$Polygon");
    assert_eq!(db.select(polygon, area), Err(SelectError::Abstract(area)));
    // ...and each concrete subclass its own (§5.4.6), or the default for `label`.
    let square = method(&db, "Abstracts$Square", "area", "()D");
    let triangle = method(&db, "Abstracts$Triangle", "area", "()D");
    assert_eq!(
        target(&db, InvokeKind::Virtual, "Abstracts$Polygon", "area", "()D", "Abstracts$Square"),
        Some(square)
    );
    let label = method(&db, "Abstracts$Shape", "label", STRING);
    assert_eq!(
        target(&db, InvokeKind::Virtual, "Abstracts$Polygon", "label", STRING, "Abstracts$Square"),
        Some(label)
    );
    let caller = method(&db, "Abstracts", "area", "(Lresolution/Abstracts$Polygon;)D");
    assert_eq!(db.call_sites(caller)[0].targets, vec![square, triangle]);
}

#[test]
fn interfaces_have_the_public_methods_of_object() {
    let db = db();
    let to_string = method(&db, "java/lang/Object", "toString", STRING);
    let hash_code = method(&db, "java/lang/Object", "hashCode", "()I");
    // §5.4.3.4 step 3: an interface that does not declare `toString` resolves to Object's.
    assert_eq!(resolve(&db, "ObjectMethods$Named", "toString", STRING), Some(to_string));
    assert_eq!(resolve(&db, "ObjectMethods$Named", "hashCode", "()I"), Some(hash_code));
    // Only the public ones: `clone` is protected, so the reference does not resolve.
    assert_eq!(resolve(&db, "ObjectMethods$Named", "clone", "()Ljava/lang/Object;"), None);
    // An interface redeclaring it resolves to its own declaration (step 2)...
    let tagged = method(&db, "ObjectMethods$Tagged", "toString", STRING);
    assert_eq!(resolve(&db, "ObjectMethods$Tagged", "toString", STRING), Some(tagged));
    // ...and selection finds Object's, or the receiver's override.
    let plain =
        target(&db, InvokeKind::Interface, "ObjectMethods$Tagged", "toString", STRING, "ObjectMethods$Plain");
    assert_eq!(plain, Some(to_string));
    let label = method(&db, "ObjectMethods$Label", "toString", STRING);
    let labelled =
        target(&db, InvokeKind::Interface, "ObjectMethods$Named", "toString", STRING, "ObjectMethods$Label");
    assert_eq!(labelled, Some(label));
}

#[test]
fn fields_resolve_through_superinterfaces_before_the_superclass() {
    let db = db();
    let resolved = |owner: &str, name: &str, desc: &str| {
        db.resolve_field(&format!("resolution/{owner}"), name, desc).map(|c| db.class_name(c).to_string())
    };
    // §5.4.3.2: the class itself, then its superinterfaces, then its superclass.
    assert_eq!(resolved("Fields$Sub", "count", "I").as_deref(), Some("resolution/Fields$Base"));
    assert_eq!(resolved("Fields$Ambiguous", "LIMIT", "I").as_deref(), Some("resolution/Fields$Constants"));
    assert_eq!(resolved("Fields$Sub", "LIMIT", "I").as_deref(), Some("resolution/Fields$Base"));
    assert_eq!(resolved("Fields$Sub", "missing", "I"), None);
}

#[test]
fn generic_supertypes_come_from_the_signature_attribute() {
    let db = db();
    let g = db.generic_supertypes(class(&db, "Generic"));
    assert!(g.generic);
    assert_eq!(&*g.type_params, "<K::Ljava/lang/Comparable<TK;>;V:Ljava/lang/Object;>");
    let supers: Vec<&str> = g.supers().collect();
    assert_eq!(
        supers,
        [
            "Ljava/util/AbstractMap<TK;Ljava/util/List<TV;>;>;",
            "Ljava/util/function/Function<TK;TV;>;",
            "Ljava/io/Serializable;"
        ]
    );
    let deeper = db.generic_supertypes(class(&db, "Generic$Deeper"));
    assert_eq!(deeper.supers().collect::<Vec<_>>(), ["Lresolution/Generic<TK;TV;>.Inner<TV;>;"]);
    // Without a Signature attribute: the erased supertypes.
    let leaf = db.generic_supertypes(class(&db, "Supers$Leaf"));
    assert!(!leaf.generic);
    assert_eq!(
        leaf.supers().collect::<Vec<_>>(),
        ["Lresolution/Supers$Middle;", "Lresolution/Supers$Greeter;"]
    );
    let object = db.generic_supertypes(db.class_id("java/lang/Object").expect("java.base"));
    assert_eq!(object.supers().count(), 0);
}
