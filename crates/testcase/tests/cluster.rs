//! Test-cluster tests: a snapshot of the cluster dump for each fixture class under test
//! (`fixtures/java/cluster`), and clusters of real library classes that must build and offer calls.
//! Refresh snapshots with `UPDATE_EXPECT=1`.

use std::path::PathBuf;

use expect_test::expect_file;
use programdb::ProgramDb;
use testcase::cluster::Creation;
use testcase::types::parse_field_type;
use testcase::{
    ClusterConfig, FactoryConfig, JType, TestCluster, TestFactory, ValuePool, check, rng_from_seed,
};

/// The program database over java.base and the `cluster` fixtures: clusters are built over the
/// database, as a run builds them.
fn fixture_db() -> ProgramDb {
    area_db("cluster")
}

/// The program database over java.base and one fixture area's classes.
fn area_db(area: &str) -> ProgramDb {
    db_of(&[test_support::java_base_jmod(), test_support::fixture_classes(area)])
}

fn db_of(paths: &[PathBuf]) -> ProgramDb {
    test_support::open_db(paths)
}

fn check_cluster(db: &ProgramDb, simple: &str) {
    let cluster = TestCluster::build_in(db, &format!("cluster.{simple}"), &ClusterConfig::evosuite())
        .expect("cluster builds");
    expect_file![format!("../test_data/cluster/{simple}.txt")].assert_eq(&cluster.dump());
}

#[test]
fn fixture_clusters() {
    let db = fixture_db();
    for simple in
        ["Overloads", "Generics", "Geometry", "Zoo", "Palette", "Pizza", "Money", "ArrayOps", "Cleaner"]
    {
        check_cluster(&db, simple);
    }
}

/// The static pool with `code_constants` (`--code-constants on`): `constants.Thresholds` compares with
/// numbers it pushes (`sipush 5000`, `bipush 58`, `iconst_3`, `lconst_1`, `fconst_2`, `dconst_1`)
/// and one from its constant pool (`ldc 100000`); its `<clinit>` table (11, 22, 33, 4444) stays out.
/// Without the switch the pool holds the constant pool's numbers alone. Snapshot:
/// `test_data/cluster/Thresholds.txt`.
#[test]
fn the_static_pool_holds_the_numbers_the_methods_push() {
    let db = area_db("constants");
    let constants = |code_constants: bool| {
        let config = ClusterConfig { code_constants, ..ClusterConfig::evosuite() };
        let cluster = TestCluster::build_in(&db, "constants.Thresholds", &config).expect("cluster builds");
        cluster.dump().lines().find(|l| l.starts_with("constants:")).unwrap_or_default().to_string()
    };
    let on = constants(true);
    expect_file!["../test_data/cluster/Thresholds.txt"].assert_eq(&format!("{on}\n"));
    assert_eq!(
        constants(false),
        "constants: ints {-1, 0, 1, 100000} longs {-1, 0, 1} floats [0.0, 1.0, -1.0] doubles [0.0, 1.0, -1.0] strings [\"\"]"
    );
}

#[test]
fn missing_class_is_an_error() {
    let db = fixture_db();
    let err = TestCluster::build_in(&db, "cluster.DoesNotExist", &ClusterConfig::evosuite()).unwrap_err();
    assert_eq!(err.to_string(), "class cluster.DoesNotExist is not on the classpath");
}

/// A JDK method overridden with a narrower return type is a member once, as the override: the
/// package-private `AbstractStringBuilder.append` returns a type no test can name (it made an
/// uncompilable test on joda-time's `PeriodFormatterBuilder`, whose methods take a `StringBuffer`).
#[test]
fn overrides_with_narrower_returns_hide_inaccessible_ones() {
    let db = db_of(&[test_support::java_base_jmod(), PathBuf::from("/usr/share/java/joda-time.jar")]);
    let cluster =
        TestCluster::build_in(&db, "org.joda.time.format.PeriodFormatterBuilder", &ClusterConfig::evosuite())
            .expect("cluster builds");
    let dump = cluster.dump();
    assert!(dump.contains("java.lang.StringBuffer"), "StringBuffer is in the cluster:\n{dump}");
    assert!(!dump.contains("AbstractStringBuilder"), "{dump}");
}

#[test]
fn real_library_clusters() {
    let jars = PathBuf::from("/usr/share/java");
    let cases = [
        ("commons-lang3.jar", "org.apache.commons.lang3.StringUtils"),
        ("guava.jar", "com.google.common.base.CharMatcher"),
        ("joda-time.jar", "org.joda.time.Period"),
    ];
    for (jar, class) in cases {
        let db = db_of(&[test_support::java_base_jmod(), jars.join(jar)]);
        let cluster = TestCluster::build_in(&db, class, &ClusterConfig::evosuite()).expect("cluster builds");
        let (targets, generators, modifiers) = cluster.counts();
        println!(
            "{class}: {targets} targets, {generators} generators, {modifiers} modifiers, {} problems",
            cluster.problems().len()
        );
        assert!(targets > 0, "{class} has no callable members");
        // The factory and mutation work on real clusters too, and keep tests well-typed.
        let config = FactoryConfig::evosuite();
        let pool = ValuePool::new(cluster.constants().clone(), config.dynamic_pool_size);
        let factory = TestFactory::new(&cluster, &pool, &config);
        let mut rng = rng_from_seed(1);
        let mut statements = 0;
        for _ in 0..50 {
            let mut t = factory.random_test(&mut rng);
            factory.mutate(&mut t, &mut rng);
            if let Err(e) = check(&t, &cluster) {
                panic!("{class}: invalid test: {e}\n{t}");
            }
            statements += t.len();
        }
        println!("{class}: 50 random tests, {statements} statements");
        assert!(statements > 50);
    }
}

/// One line per way of creating `want`: generators with the types they were instantiated to.
fn creations_text(cluster: &TestCluster, want: &JType) -> String {
    let mut s = format!("{want}:\n");
    for c in cluster.creations(want).iter() {
        let line = match c {
            Creation::Call(inst) => {
                let params: Vec<String> = inst.params.iter().map(JType::to_string).collect();
                let ret = inst.ret.as_ref().map(JType::to_string).unwrap_or_default();
                format!("{}  as ({}) -> {ret}", inst.callable.describe(), params.join(", "))
            }
            other => format!("{other:?}"),
        };
        s.push_str(&format!("  {line}\n"));
    }
    s
}

/// A method variable bounded by a class variable (`<E extends T> E longer(E, E)` of
/// `Ranking<T extends Piece>`, as Guava's `Ordering.max`) is bound to the class variable's
/// binding when none of the usual candidates fits; its erased bound, Object, made javac reject
/// `longer((Object) a, (Object) b)` (Guava's `Range`, a dropped test in the 2021 run).
#[test]
fn method_variables_bounded_by_class_variables() {
    let db = area_db("bounds");
    let cluster =
        TestCluster::build_in(&db, "bounds.Ranking", &ClusterConfig::evosuite()).expect("cluster builds");
    let longer = cluster.targets().iter().find(|g| g.name == "longer").expect("longer is a target").clone();
    let inst = cluster.instantiate(&longer, None);
    let piece = JType::class("bounds.Ranking$Piece");
    assert_eq!(inst.params, [piece.clone(), piece.clone()], "{:?}", inst.owner);
    assert_eq!(inst.ret, Some(piece));
}

/// Generators are instantiated only within the bounds of their type variables (JLS §4.5), F-bounds
/// included: `SortedBag<Object>` has no `create()` (`E extends Comparable<E>`); raw `Comparable`
/// is within a method variable's bound by unchecked conversion, as javac's inference allows, but
/// not within a class variable's (`FrozenSpanMap<Comparable, Object>`, ill-formed for `K extends
/// Comparable<?>`, has no generator). Generic targets are tested as a parameterization their
/// factories can produce (`SortedBag<String>`).
#[test]
fn generators_within_bounds() {
    let db = area_db("bounds");
    let parse = |s: &str| parse_field_type(s).expect("type parses");
    let mut out = String::new();
    for (cut, wants) in [
        (
            "bounds.SortedBag",
            vec![
                "Lbounds/SortedBag<Ljava/lang/Object;>;",
                "Lbounds/SortedBag<Ljava/lang/String;>;",
                "Lbounds/SortedBag<Ljava/lang/Integer;>;",
                "Lbounds/SortedBag<Ljava/lang/Comparable;>;",
            ],
        ),
        (
            "bounds.SpanMap",
            vec![
                "Lbounds/SpanMap<Ljava/lang/Comparable;Ljava/lang/Object;>;",
                "Lbounds/SpanMap<Ljava/lang/String;Ljava/lang/Object;>;",
                "Lbounds/Span<Ljava/lang/String;>;",
            ],
        ),
        (
            "bounds.FrozenSpanMap",
            vec![
                "Lbounds/FrozenSpanMap<Ljava/lang/Comparable;Ljava/lang/Object;>;",
                "Lbounds/FrozenSpanMap<Ljava/lang/Integer;Ljava/lang/Object;>;",
            ],
        ),
    ] {
        let cluster = TestCluster::build_in(&db, cut, &ClusterConfig::evosuite()).expect("cluster builds");
        out.push_str(&format!("== {cut}\n"));
        for class in [cut.to_string(), format!("{cut}$Builder")] {
            if let Some(t) = cluster.target_parameterization(&class) {
                out.push_str(&format!("tested as {t}\n"));
            }
        }
        for g in cluster.targets() {
            let inst = cluster.instantiate(g, None);
            let params: Vec<String> = inst.params.iter().map(JType::to_string).collect();
            out.push_str(&format!("target {} as {} ({})\n", g.describe(), inst.owner, params.join(", ")));
        }
        for w in wants {
            out.push_str(&creations_text(&cluster, &parse(w)));
        }
    }
    expect_file!["../test_data/bounds/creations.txt"].assert_eq(&out);
}

/// JDK constructors that read the real clock or fresh entropy are not in the cluster: the worker
/// runs statements outside the guards, so `new Date()` made two same-seed runs of gson's
/// `ISO8601Utils` (whose `format` takes a `Date`) write different tests. `new Date(long)` stays.
#[test]
fn clock_reading_jdk_constructors_are_left_out() {
    let db = db_of(&[test_support::java_base_jmod(), PathBuf::from("/usr/share/java/gson.jar")]);
    let cluster = TestCluster::build_in(
        &db,
        "com.google.gson.internal.bind.util.ISO8601Utils",
        &ClusterConfig::evosuite(),
    )
    .expect("cluster builds");
    let dump = cluster.dump();
    assert!(dump.contains("new Date(long) -> Date"), "Date(long) is in the cluster:\n{dump}");
    assert!(!dump.contains("new Date() -> Date"), "Date() is not:\n{dump}");
}

/// JDK constructors that open a file by name, `File` or `Path` are not in the cluster: the worker
/// and the written test would create the file in the working directory, and verification drops
/// such tests (`new PrintStream("1d")` for Commons Collections' `MapUtils.verbosePrint`). The
/// in-memory ones stay. `fixtures/java/jdkvalues`' `Printing` takes a `PrintStream`, a
/// `PrintWriter`, a `Formatter`, a `Writer` and a `Scanner`.
#[test]
fn file_opening_jdk_constructors_are_left_out() {
    let db = area_db("jdkvalues");
    let cluster =
        TestCluster::build_in(&db, "jdkvalues.Printing", &ClusterConfig::evosuite()).expect("cluster builds");
    let dump = cluster.dump();
    for want in [
        "new PrintStream(OutputStream",
        "new PrintWriter(Writer",
        "new Formatter(Appendable",
        "new Scanner(String)",
    ] {
        assert!(dump.contains(want), "{want} is in the cluster:\n{dump}");
    }
    for unwanted in [
        "(String) -> PrintStream",
        "(File) -> PrintStream",
        "(String) -> PrintWriter",
        "(String) -> Formatter",
        "(File) -> Scanner",
        "(Path) -> Scanner",
        "new FileWriter(",
        "new FileOutputStream(",
    ] {
        assert!(!dump.contains(unwanted), "{unwanted} is not:\n{dump}");
    }
}

/// Overloads javac cannot tell apart are not in the cluster: Commons Collections' `DefaultedMap`
/// has `defaultedMap(Map<K, V>, V)` beside `defaultedMap(Map<K, V>, Transformer<..>)` and
/// `defaultedMap(Map<K, V>, Factory<..>)`, and a written call of either of the latter is ambiguous
/// (`MapUtils` lost 44 tests at 30 s to it). The first, and `MapUtils`' own overloads, stay.
#[test]
fn overloads_a_call_cannot_select_are_left_out() {
    let db =
        db_of(&[test_support::java_base_jmod(), PathBuf::from("/usr/share/java/commons-collections4.jar")]);
    let cluster = TestCluster::build_in(
        &db,
        "org.apache.commons.collections4.map.DefaultedMap",
        &ClusterConfig::evosuite(),
    )
    .expect("cluster builds");
    let dump = cluster.dump();
    assert!(dump.contains("DefaultedMap.defaultedMap(Map<K, V>, V)"), "the plain overload stays:\n{dump}");
    for unwanted in ["defaultedMap(Map<K, V>, Transformer", "defaultedMap(Map<K, V>, Factory"] {
        assert!(!dump.contains(unwanted), "{unwanted} is not in the cluster:\n{dump}");
    }
    let cluster =
        TestCluster::build_in(&db, "org.apache.commons.collections4.MapUtils", &ClusterConfig::evosuite())
            .expect("cluster builds");
    let dump = cluster.dump();
    for wanted in [
        "MapUtils.lazyMap(Map<K, V>, Factory",
        "MapUtils.lazyMap(Map<K, V>, Transformer",
        "MapUtils.getObject(",
    ] {
        assert!(dump.contains(wanted), "{wanted} is in the cluster:\n{dump}");
    }
}

/// A method a subclass overrides where the test cannot call it is not offered on that subclass,
/// though the superclass's is: `fixtures/java/access`' `SpecialFactory` overrides `Factory`'s
/// protected `init` in another package, so the test in `access` may write `factory.init(1)` on a
/// `Factory` but not on a `SpecialFactory` (JLS §8.4.8: the superclass's is not inherited there);
/// Spatial4j's `SpatialContextFactory` lost 10 tests to it.
#[test]
fn overrides_the_test_cannot_call_hide_the_superclass_method() {
    let db = area_db("access");
    let cluster =
        TestCluster::build_in(&db, "access.Factory", &ClusterConfig::evosuite()).expect("cluster builds");
    let dump = cluster.dump();
    // `describe` names the declaring class: once as the CUT's target, never as a modifier of
    // `SpecialFactory`.
    assert_eq!(dump.matches("Factory.init(int)").count(), 1, "init only on a Factory:\n{dump}");
    assert!(dump.contains("access.other.SpecialFactory:\n    Factory.level()"), "{dump}");
}

/// JDK value classes are made by their public static factories: the cluster of
/// `fixtures/java/jdkvalues`' `Times` offers `Duration.ofSeconds`, `LocalDate.ofEpochDay`,
/// `Clock.fixed` (with `ZoneOffset` standing for the abstract `ZoneId`), and none of the factories
/// that read the clock (`now`) or parse text the search rarely gets right (`parse`). Snapshot:
/// `test_data/cluster/jdkvalues-Times.txt`.
#[test]
fn jdk_value_classes_come_from_their_deterministic_factories() {
    let db = area_db("jdkvalues");
    let cluster =
        TestCluster::build_in(&db, "jdkvalues.Times", &ClusterConfig::evosuite()).expect("cluster builds");
    let dump = cluster.dump();
    for want in ["Duration.ofSeconds(", "LocalDate.ofEpochDay(", "Clock.fixed(", "ZoneOffset.ofHours("] {
        assert!(dump.contains(want), "{want} is in the cluster:\n{dump}");
    }
    for unwanted in [".now(", ".parse(", "systemUTC"] {
        assert!(!dump.contains(unwanted), "{unwanted} is not:\n{dump}");
    }
    expect_file!["../test_data/cluster/jdkvalues-Times.txt"].assert_eq(&dump);
}

/// Stubs: the abstract classes and interfaces of `stubs.Elapsed`'s parameters
/// get stubs with their constructors and abstract methods (a protected abstract method, a generic
/// interface's two methods but not its default one, `Comparator.compare` but not the `equals` it
/// redeclares, `Executor.execute` running its task); JDK types' stubs live in `suitesmith.stubs`.
/// A stub of `Source<String>` answers strings, and a creation of every stub type is offered. With
/// `stubs: false` there is none. Snapshot: `test_data/cluster/stubs-Elapsed.txt` (stub lines).
#[test]
fn abstract_types_get_stubs_with_their_abstract_methods() {
    let db = area_db("stubs");
    let config = ClusterConfig { stubs: true, ..ClusterConfig::evosuite() };
    let cluster = TestCluster::build_in(&db, "stubs.Elapsed", &config).expect("cluster builds");
    let dump = cluster.dump();
    let stubs: String = dump
        .lines()
        .skip_while(|l| *l != "stubs:")
        .take_while(|l| !l.starts_with("constants"))
        .fold(String::new(), |mut s, l| {
            s.push_str(l);
            s.push('\n');
            s
        });
    expect_file!["../test_data/cluster/stubs-Elapsed.txt"].assert_eq(&stubs);
    let source = parse_field_type("Lstubs/Source<Ljava/lang/String;>;").expect("type");
    let stub = cluster
        .creations(&source)
        .iter()
        .find_map(|c| match c {
            Creation::Stub(s) => Some(s.clone()),
            _ => None,
        })
        .expect("a stub of Source<String>");
    let names: Vec<&str> = stub.stub.methods.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["next", "size"]);
    assert_eq!(stub.answer_types, [Some(JType::string()), Some(JType::Prim(testcase::PrimType::Int))]);

    let plain =
        TestCluster::build_in(&db, "stubs.Elapsed", &ClusterConfig::evosuite()).expect("cluster builds");
    assert!(!plain.dump().contains("stubs:"));
    assert!(plain.creations(&source).iter().all(|c| !matches!(c, Creation::Stub(_))));

    // `Enum` and `Record` are abstract, and `Enum` is generic without abstract methods, as a
    // capture (`TypeToken`) is; but no class may extend them directly (JLS §8.1.4).
    let names = TestCluster::build_in(&db, "stubs.Names", &config).expect("cluster builds");
    for t in ["Ljava/lang/Enum<*>;", "Ljava/lang/Record;"] {
        let ty = parse_field_type(t).expect("type");
        assert!(names.creations(&ty).iter().all(|c| !matches!(c, Creation::Stub(_))), "a stub of {t}");
    }
    assert!(!names.dump().contains("java.lang.Enum as"), "{}", names.dump());
    // `KeyOrder.compare(Key, Key)`: the override would name a class of another package.
    let order = parse_field_type("Lstubs/hidden/KeyOrder;").expect("type");
    assert!(names.creations(&order).iter().all(|c| !matches!(c, Creation::Stub(_))), "{}", names.dump());
    assert!(!names.creations(&order).is_empty(), "KeyOrder.natural() stays: {}", names.dump());
}

/// Files: with `files: true` a wanted `File` or `Path` can be a scratch file
/// (offered first, beside `new File(String)` and the like); with `files: false` none is offered.
#[test]
fn files_and_paths_can_be_scratch_files() {
    let db = area_db("files");
    let file = JType::class("java.io.File");
    let path = JType::class("java.nio.file.Path");
    let config = ClusterConfig { files: true, ..ClusterConfig::evosuite() };
    let cluster = TestCluster::build_in(&db, "files.Journal", &config).expect("cluster builds");
    assert_eq!(cluster.creations(&file).first(), Some(&Creation::ScratchFile { path: false }));
    assert!(cluster.creations(&file).iter().any(|c| matches!(c, Creation::Call(_))), "new File(..) stays");
    assert_eq!(cluster.creations(&path).first(), Some(&Creation::ScratchFile { path: true }));

    let plain =
        TestCluster::build_in(&db, "files.Journal", &ClusterConfig::evosuite()).expect("cluster builds");
    for t in [&file, &path] {
        assert!(plain.creations(t).iter().all(|c| !matches!(c, Creation::ScratchFile { .. })));
    }
}

/// Generators from the package: with `package_generators: true`, the types of
/// `generators.Router`'s parameters that nothing in the cluster makes get the methods of their own
/// package returning them: `Channels.loopback(int)` and `Channels.closed()` for `Channel` (its
/// implementation is package-private in another package), the instance method `Registry.issue`
/// for `Ticket` (its constructor is package-private), `Pools`' factories for `Pool`, the constants
/// `Mode.READ` and `Mode.WRITE` for `Mode` (its constructor is private); not
/// `Channels.raw(int)`, whose result type is package-private there, so that a test in `generators`
/// cannot declare it. Without the switch, none of the four can be made. Snapshot:
/// `test_data/cluster/generators-Router.txt`.
#[test]
fn package_generators_make_what_only_other_classes_of_a_package_make() {
    let db = area_db("generators");
    let wants: Vec<JType> = ["Channel", "Ticket", "Pool", "Mode"]
        .iter()
        .map(|n| JType::class(&format!("generators.net.{n}")))
        .collect();
    let config = ClusterConfig { package_generators: true, ..ClusterConfig::evosuite() };
    let cluster = TestCluster::build_in(&db, "generators.Router", &config).expect("cluster builds");
    let text: String = wants.iter().map(|w| creations_text(&cluster, w)).collect();
    expect_file!["../test_data/cluster/generators-Router.txt"].assert_eq(&text);

    let plain =
        TestCluster::build_in(&db, "generators.Router", &ClusterConfig::evosuite()).expect("cluster builds");
    for w in &wants {
        assert!(plain.creations(w).is_empty(), "{w}: {:?}", plain.creations(w));
    }
}
