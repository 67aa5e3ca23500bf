//! The gates on the techniques' own fixture classes (each technique's gate must be open on the
//! classes written for it) and on real classes of Guava and commons-lang3, as snapshots: one line
//! per class with `+` for an open gate and `-` for a closed one (the rows that are always open
//! left out), then the full table with reasons for a few classes.

use expect_test::{Expect, expect};
use portfolio::{Arm, Gate, gates, render};
use programdb::ProgramDb;

/// The arms whose gate can close, in table order.
const GATED: [Arm; 8] = [
    Arm::Ocg,
    Arm::Flags,
    Arm::Sushi,
    Arm::Dse,
    Arm::LocalSearch,
    Arm::Stubs,
    Arm::Files,
    Arm::StringDistance,
];

fn gates_of(db: &ProgramDb, class: &str) -> Vec<Gate> {
    let id = db.class_id(class).unwrap_or_else(|| panic!("{class} is on the classpath"));
    gates(db, id).unwrap_or_else(|e| panic!("{class}: {e}"))
}

fn line(db: &ProgramDb, class: &str) -> String {
    let gs = gates_of(db, class);
    let marks: Vec<String> = GATED
        .iter()
        .map(|&arm| {
            let open = gs.iter().any(|g| g.arm == arm && g.open);
            format!("{}{}", if open { '+' } else { '-' }, arm.name())
        })
        .collect();
    format!("{class:32} {}\n", marks.join(" "))
}

/// Every top-level class of a fixture area, one line each.
fn check_area(area: &str, expect: Expect) {
    let db = test_support::fixture_db(area);
    let dir = test_support::fixture_classes(area);
    let mut classes: Vec<String> = db
        .class_ids()
        .map(|c| db.class_name(c).to_string())
        .filter(|n| !n.contains('$') && dir.join(format!("{n}.class")).exists())
        .collect();
    classes.sort();
    expect.assert_eq(&classes.iter().map(|c| line(&db, c)).collect::<String>());
}

/// Each technique's gate is open on its own fixtures: flags on the flag classes (but `NotFlags`,
/// written to have none), SUSHI on the heap structures, files on the file classes, stubs on the
/// stub classes, the string distance on the string parsers.
#[test]
fn gates_on_the_techniques_fixtures() {
    check_area(
        "strings",
        expect![[r#"
        strings/Codes                    -ocg -flags -sushi +dse -local-search -stubs -files +string-distance
        strings/Commands                 -ocg -flags -sushi +dse -local-search -stubs -files +string-distance
        strings/Version                  -ocg -flags -sushi +dse -local-search -stubs -files +string-distance
    "#]],
    );
    check_area(
        "flags",
        expect![[r#"
            flags/BandClassifier             -ocg +flags -sushi +dse +local-search -stubs -files -string-distance
            flags/Cascade                    -ocg +flags -sushi +dse +local-search -stubs -files -string-distance
            flags/CascadeSite                -ocg +flags -sushi +dse +local-search -stubs -files -string-distance
            flags/ChecksumScanner            -ocg +flags -sushi +dse +local-search -stubs -files -string-distance
            flags/Gate                       -ocg +flags -sushi +dse +local-search -stubs -files -string-distance
            flags/Guards                     -ocg +flags -sushi +dse +local-search -stubs -files -string-distance
            flags/KeyIndex                   -ocg +flags -sushi +dse +local-search -stubs -files -string-distance
            flags/LocalFlags                 -ocg +flags -sushi +dse +local-search -stubs -files -string-distance
            flags/LocalSite                  -ocg +flags -sushi +dse +local-search -stubs -files -string-distance
            flags/LoopFlag                   -ocg +flags -sushi +dse +local-search -stubs -files -string-distance
            flags/LoopSite                   -ocg +flags -sushi +dse +local-search -stubs -files -string-distance
            flags/NegatedFlags               -ocg +flags -sushi +dse +local-search -stubs -files -string-distance
            flags/NotFlags                   +ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            flags/Recursive                  -ocg +flags -sushi +dse +local-search -stubs -files -string-distance
            flags/Shapes                     +ocg +flags -sushi +dse +local-search +stubs -files -string-distance
            flags/SiteKey                    -ocg +flags -sushi +dse +local-search -stubs -files -string-distance
            flags/TwoSites                   -ocg +flags -sushi +dse +local-search -stubs -files -string-distance
        "#]],
    );
    check_area(
        "sushi",
        expect![[r#"
            sushi/BlockPool                  +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            sushi/CachingList                +ocg +flags +sushi +dse -local-search -stubs -files -string-distance
            sushi/DList                      +ocg -flags +sushi +dse +local-search -stubs -files -string-distance
            sushi/Digraph                    +ocg +flags +sushi +dse +local-search -stubs -files -string-distance
            sushi/Expr                       +ocg +flags +sushi +dse +local-search -stubs -files -string-distance
            sushi/ExpressList                +ocg -flags +sushi +dse +local-search -stubs -files -string-distance
            sushi/IntTree                    +ocg +flags +sushi +dse +local-search -stubs -files -string-distance
            sushi/LinkedHeap                 +ocg -flags +sushi +dse +local-search -stubs -files -string-distance
            sushi/LruMap                     +ocg -flags +sushi +dse +local-search -stubs -files -string-distance
            sushi/ParentTree                 +ocg -flags +sushi +dse +local-search -stubs -files -string-distance
            sushi/PlateStack                 +ocg -flags +sushi +dse +local-search -stubs -files -string-distance
            sushi/RingBuffer                 +ocg -flags +sushi +dse -local-search -stubs -files -string-distance
            sushi/Roster                     +ocg -flags +sushi +dse -local-search -stubs -files -string-distance
            sushi/Sample                     +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            sushi/UnionFind                  +ocg -flags +sushi +dse -local-search -stubs -files -string-distance
        "#]],
    );
    check_area(
        "files",
        expect![[r#"
            files/Config                     -ocg -flags -sushi +dse -local-search -stubs +files +string-distance
            files/Journal                    -ocg -flags -sushi +dse -local-search -stubs +files -string-distance
            files/PathKinds                  -ocg -flags -sushi +dse -local-search +stubs +files -string-distance
        "#]],
    );
    check_area(
        "stubs",
        expect![[r#"
            stubs/Amount                     +ocg -flags +sushi -dse -local-search +stubs -files -string-distance
            stubs/Builders                   -ocg -flags -sushi +dse +local-search +stubs -files -string-distance
            stubs/Captures                   +ocg -flags +sushi +dse -local-search +stubs -files +string-distance
            stubs/Closing                    -ocg -flags -sushi +dse -local-search +stubs -files -string-distance
            stubs/Elapsed                    +ocg -flags +sushi +dse -local-search +stubs -files -string-distance
            stubs/Meter                      +ocg -flags -sushi +dse +local-search +stubs -files -string-distance
            stubs/Names                      -ocg -flags -sushi -dse -local-search +stubs -files -string-distance
            stubs/Shape                      -ocg -flags -sushi +dse -local-search +stubs -files -string-distance
            stubs/Source                     -ocg -flags -sushi +dse -local-search +stubs -files -string-distance
            stubs/TypeRef                    -ocg -flags -sushi +dse -local-search +stubs -files -string-distance
            stubs/hidden/Key                 -ocg -flags -sushi -dse +local-search -stubs -files -string-distance
            stubs/hidden/KeyOrder            -ocg -flags -sushi -dse -local-search +stubs -files -string-distance
        "#]],
    );
}

#[test]
fn gates_on_the_dse_and_ocg_fixtures() {
    check_area(
        "dse",
        expect![[r#"
            dse/Account                      -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            dse/ArraySum                     -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            dse/Bar                          +ocg -flags +sushi +dse -local-search -stubs -files +string-distance
            dse/CasNumber                    -ocg -flags -sushi +dse -local-search -stubs -files -string-distance
            dse/CharCode                     -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            dse/Concat                       -ocg -flags -sushi +dse +local-search -stubs -files +string-distance
            dse/DateParse                    -ocg -flags -sushi +dse -local-search -stubs -files -string-distance
            dse/Email                        -ocg -flags -sushi +dse -local-search -stubs -files +string-distance
            dse/FloatMath                    -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            dse/Foo                          -ocg -flags -sushi -dse -local-search -stubs -files -string-distance
            dse/Guard                        -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            dse/Keyword                      -ocg -flags -sushi +dse -local-search -stubs -files +string-distance
            dse/LongBits                     -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            dse/Luhn                         -ocg -flags -sushi +dse -local-search -stubs -files -string-distance
            dse/Magic                        -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            dse/Modular                      -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            dse/Narrow                       -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            dse/ParseNum                     -ocg -flags -sushi +dse -local-search -stubs -files -string-distance
            dse/Reverse                      -ocg -flags -sushi +dse -local-search -stubs -files +string-distance
            dse/Same                         -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            dse/Square                       -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            dse/Table                        -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            dse/symbolic/Collect             -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            dse/symbolic/Flow                -ocg -flags -sushi +dse +local-search -stubs -files +string-distance
            dse/symbolic/Jdk                 -ocg -flags -sushi +dse +local-search -stubs -files +string-distance
            dse/symbolic/Lambdas             -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            dse/symbolic/Numbers             -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            dse/symbolic/Parsing             -ocg -flags -sushi +dse +local-search -stubs -files +string-distance
            dse/symbolic/Props               -ocg -flags -sushi +dse +local-search -stubs -files +string-distance
            dse/symbolic/Shapes              -ocg +flags -sushi +dse +local-search -stubs -files +string-distance
            dse/symbolic/Stack               -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            dse/symbolic/Texts               -ocg -flags -sushi +dse +local-search -stubs -files +string-distance
            dse/types/Counter                -ocg -flags -sushi -dse -local-search +stubs -files -string-distance
            dse/types/Numbers                -ocg -flags -sushi -dse -local-search +stubs -files -string-distance
            dse/types/Shape                  -ocg -flags -sushi +dse +local-search +stubs -files -string-distance
            dse/types/Uses                   +ocg -flags +sushi +dse +local-search +stubs -files +string-distance
        "#]],
    );
    check_area(
        "ocg",
        expect![[r#"
            ocg/Account                      -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            ocg/Action                       -ocg -flags -sushi -dse +local-search -stubs -files -string-distance
            ocg/Applicant                    +ocg -flags +sushi +dse +local-search -stubs -files -string-distance
            ocg/AwardChecker                 +ocg -flags +sushi +dse -local-search -stubs -files -string-distance
            ocg/Badge                        -ocg -flags -sushi -dse +local-search -stubs -files -string-distance
            ocg/Barrier                      -ocg -flags -sushi -dse +local-search -stubs -files -string-distance
            ocg/BasicRules                   +ocg -flags +sushi +dse -local-search -stubs -files -string-distance
            ocg/Basket                       +ocg -flags +sushi +dse -local-search -stubs -files -string-distance
            ocg/Boiler                       -ocg -flags -sushi -dse +local-search -stubs -files -string-distance
            ocg/Branch                       +ocg -flags +sushi -dse +local-search -stubs -files -string-distance
            ocg/CV                           -ocg -flags -sushi -dse +local-search -stubs -files -string-distance
            ocg/Cart                         +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            ocg/Chain                        +ocg -flags +sushi +dse -local-search -stubs -files -string-distance
            ocg/Checkout                     +ocg -flags +sushi +dse -local-search -stubs -files -string-distance
            ocg/City                         -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            ocg/Counter                      +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            ocg/Courier                      +ocg -flags +sushi +dse -local-search -stubs -files -string-distance
            ocg/Customer                     +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            ocg/Dispatcher                   +ocg -flags +sushi +dse -local-search -stubs -files -string-distance
            ocg/Frame                        +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            ocg/GameState                    +ocg -flags +sushi +dse +local-search -stubs -files -string-distance
            ocg/Gate                         +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            ocg/Hall                         +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            ocg/Hub                          -ocg -flags -sushi -dse +local-search -stubs -files -string-distance
            ocg/Inspector                    +ocg -flags +sushi +dse -local-search -stubs -files -string-distance
            ocg/Item                         -ocg -flags -sushi -dse +local-search -stubs -files -string-distance
            ocg/Itinerary                    +ocg -flags +sushi +dse -local-search -stubs -files -string-distance
            ocg/Journey                      +ocg -flags +sushi +dse -local-search -stubs -files -string-distance
            ocg/Leg                          +ocg -flags +sushi -dse +local-search -stubs -files -string-distance
            ocg/LoanDesk                     +ocg -flags +sushi +dse -local-search -stubs -files -string-distance
            ocg/Node                         +ocg -flags +sushi -dse +local-search -stubs -files -string-distance
            ocg/Order                        -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            ocg/Panel                        +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            ocg/Parcel                       +ocg -flags +sushi -dse +local-search -stubs -files -string-distance
            ocg/Plant                        +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            ocg/Player                       -ocg -flags -sushi -dse +local-search -stubs -files -string-distance
            ocg/Policy                       +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            ocg/Reading                      -ocg -flags -sushi -dse +local-search -stubs -files -string-distance
            ocg/Room                         +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            ocg/Route                        +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            ocg/Rule                         -ocg -flags -sushi -dse +local-search -stubs -files -string-distance
            ocg/Sensors                      -ocg -flags +sushi +dse +local-search -stubs -files -string-distance
            ocg/Shelf                        +ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            ocg/Site                         +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            ocg/Stop                         +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            ocg/Student                      +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            ocg/Supervisor                   +ocg -flags +sushi -dse +local-search -stubs -files -string-distance
            ocg/Thermostat                   +ocg -flags +sushi +dse -local-search -stubs -files -string-distance
            ocg/Throttle                     +ocg -flags +sushi +dse +local-search -stubs -files -string-distance
            ocg/Tier                         +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            ocg/Trip                         +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            ocg/Turnstile                    +ocg +flags +sushi +dse -local-search -stubs -files -string-distance
            ocg/Vault                        +ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            ocg/Warehouse                    -ocg -flags +sushi +dse +local-search -stubs -files -string-distance
            ocg/access/Base                  -ocg -flags -sushi -dse +local-search -stubs -files -string-distance
            ocg/access/CV                    -ocg -flags -sushi -dse +local-search -stubs -files -string-distance
            ocg/access/Derived               -ocg -flags -sushi -dse +local-search -stubs -files -string-distance
            ocg/access/Figure6               -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            ocg/access/Shelf                 +ocg -flags -sushi +dse +local-search -stubs -files -string-distance
            ocg/access/Student               +ocg -flags +sushi -dse -local-search -stubs -files -string-distance
            ocg/access/Supervisor            +ocg -flags +sushi -dse +local-search -stubs -files -string-distance
            ocg/access/Vault                 +ocg -flags +sushi +dse +local-search -stubs -files -string-distance
            ocg/access/Warehouse             -ocg -flags +sushi +dse +local-search -stubs -files -string-distance
        "#]],
    );
}

/// The corpus jars named, with the jars they need, and `java.base`.
fn jar_db(jars: &[&str]) -> ProgramDb {
    let mut paths = Vec::new();
    for jar in test_support::corpus_jars() {
        if jars.iter().any(|j| jar.path.ends_with(j)) {
            paths.push(jar.path);
            paths.extend(jar.deps);
        }
    }
    paths.push(test_support::java_base_jmod());
    test_support::open_db(&paths)
}

#[test]
fn gates_on_real_classes() {
    let db = jar_db(&["guava.jar", "commons-lang3.jar"]);
    let classes = [
        "com/google/common/base/Strings",
        "com/google/common/base/Splitter",
        "com/google/common/primitives/Ints",
        "com/google/common/collect/ImmutableList",
        "com/google/common/io/Files",
        "com/google/common/math/IntMath",
        "org/apache/commons/lang3/StringUtils",
        "org/apache/commons/lang3/CharRange",
        "org/apache/commons/lang3/time/DurationFormatUtils",
        "org/apache/commons/lang3/builder/EqualsBuilder",
        "org/apache/commons/lang3/math/Fraction",
    ];
    let text: String = classes.iter().map(|c| line(&db, c)).collect();
    expect![[r#"
        com/google/common/base/Strings   -ocg +flags -sushi +dse +local-search +stubs -files -string-distance
        com/google/common/base/Splitter  +ocg +flags +sushi +dse +local-search +stubs -files -string-distance
        com/google/common/primitives/Ints +ocg -flags -sushi +dse +local-search +stubs -files -string-distance
        com/google/common/collect/ImmutableList +ocg +flags -sushi +dse +local-search +stubs -files -string-distance
        com/google/common/io/Files       -ocg -flags -sushi +dse +local-search +stubs +files +string-distance
        com/google/common/math/IntMath   -ocg -flags -sushi +dse +local-search -stubs -files -string-distance
        org/apache/commons/lang3/StringUtils -ocg +flags -sushi +dse +local-search +stubs -files +string-distance
        org/apache/commons/lang3/CharRange +ocg +flags +sushi +dse +local-search -stubs -files -string-distance
        org/apache/commons/lang3/time/DurationFormatUtils +ocg +flags -sushi +dse +local-search +stubs -files +string-distance
        org/apache/commons/lang3/builder/EqualsBuilder +ocg +flags +sushi +dse +local-search +stubs -files +string-distance
        org/apache/commons/lang3/math/Fraction +ocg +flags +sushi +dse +local-search -stubs -files -string-distance
    "#]]
    .assert_eq(&text);
    expect![[r#"
        ocg                open   org/apache/commons/lang3/CharRange.contains(Lorg/apache/commons/lang3/CharRange;)Z: org/apache/commons/lang3/CharRange has instance fields
        flags              open   org/apache/commons/lang3/CharRange.toString()Ljava/lang/String; at 10 branches on org/apache/commons/lang3/CharRange.isNegated()Z
        goal-selection     open   always open: it only chooses which goals guide, at no cost per generation
        sushi              open   org/apache/commons/lang3/CharRange.contains(Lorg/apache/commons/lang3/CharRange;)Z: org/apache/commons/lang3/CharRange has instance fields
        dse                open   org/apache/commons/lang3/CharRange.<init>(CCZ)V at 4: if_icmple
        local-search       open   org/apache/commons/lang3/CharRange.is(C)Lorg/apache/commons/lang3/CharRange;: takes C
        stubs              closed the class is concrete and no callable member takes an interface or an abstract class
        files              closed no File or Path parameter or field
        package-generators open   always open: it adds generators only for types nothing else makes, once, at cluster building
        format-strings     open   always open: it adds strings only for the separators the class compares with, once
        code-constants     open   always open: a one-time read of the class's constants into the static pool
        string-distance    closed no class under test calls a string or regex test (equals, startsWith, matches, ...)
        regex-strings      open   always open: it adds strings only for the patterns the class passes to matches, split, ..., once
    "#]].assert_eq(&render(&gates_of(&db, "org/apache/commons/lang3/CharRange")));
    expect![[r#"
        ocg                closed no callable member takes an object of an application class with instance fields, no branch tests a field
        flags              closed no branch on the result of a boolean method of the application
        goal-selection     open   always open: it only chooses which goals guide, at no cost per generation
        sushi              closed no public method has a heap input (a parameter of an application class with instance fields, or a receiver with an array or application-class field)
        dse                open   com/google/common/io/Files.modes(Z)[Lcom/google/common/io/FileWriteMode; at 1: ifeq
        local-search       open   com/google/common/io/Files.write([BLjava/io/File;)V: takes [B
        stubs              open   com/google/common/io/Files.newReader(Ljava/io/File;Ljava/nio/charset/Charset;)Ljava/io/BufferedReader;: java/nio/charset/Charset is abstract
        files              open   com/google/common/io/Files.newReader(Ljava/io/File;Ljava/nio/charset/Charset;)Ljava/io/BufferedReader;: takes java/io/File
        package-generators open   always open: it adds generators only for types nothing else makes, once, at cluster building
        format-strings     open   always open: it adds strings only for the separators the class compares with, once
        code-constants     open   always open: a one-time read of the class's constants into the static pool
        string-distance    open   com/google/common/io/Files.simplifyPath(Ljava/lang/String;)Ljava/lang/String; at 37: calls java/lang/String.equals
        regex-strings      open   always open: it adds strings only for the patterns the class passes to matches, split, ..., once
    "#]].assert_eq(&render(&gates_of(&db, "com/google/common/io/Files")));
}

/// The whole table on one fixture, reasons included: what `analyze` will print.
#[test]
fn the_table_with_reasons() {
    let db = test_support::fixture_db("flags");
    expect![[r#"
        ocg                closed no callable member takes an object of an application class with instance fields, no branch tests a field
        flags              open   flags/Gate.open(II)Ljava/lang/String; at 6 branches on flags/Gate.authorized(II)Z
        goal-selection     open   always open: it only chooses which goals guide, at no cost per generation
        sushi              closed no public method has a heap input (a parameter of an application class with instance fields, or a receiver with an array or application-class field)
        dse                open   flags/Gate.open(II)Ljava/lang/String; at 6: ifeq
        local-search       open   flags/Gate.open(II)Ljava/lang/String;: takes I
        stubs              closed the class is concrete and no callable member takes an interface or an abstract class
        files              closed no File or Path parameter or field
        package-generators open   always open: it adds generators only for types nothing else makes, once, at cluster building
        format-strings     open   always open: it adds strings only for the separators the class compares with, once
        code-constants     open   always open: a one-time read of the class's constants into the static pool
        string-distance    closed no class under test calls a string or regex test (equals, startsWith, matches, ...)
        regex-strings      open   always open: it adds strings only for the patterns the class passes to matches, split, ..., once
    "#]].assert_eq(&render(&gates_of(&db, "flags/Gate")));
    let db = test_support::fixture_db("sushi");
    expect![[r#"
        ocg                open   sushi/IntTree.contains(I)Z at 8: if_icmpne tests a field
        flags              open   sushi/IntTree.shape()I at 9 branches on sushi/IntTree.isPerfect(Lsushi/IntTree$Node;I)Z
        goal-selection     open   always open: it only chooses which goals guide, at no cost per generation
        sushi              open   sushi/IntTree.size()I: its receiver has a field of type Lsushi/IntTree$Node;
        dse                open   sushi/IntTree.contains(I)Z at 8: if_icmpne
        local-search       open   sushi/IntTree.contains(I)Z: takes I
        stubs              closed the class is concrete and no callable member takes an interface or an abstract class
        files              closed no File or Path parameter or field
        package-generators open   always open: it adds generators only for types nothing else makes, once, at cluster building
        format-strings     open   always open: it adds strings only for the separators the class compares with, once
        code-constants     open   always open: a one-time read of the class's constants into the static pool
        string-distance    closed no class under test calls a string or regex test (equals, startsWith, matches, ...)
        regex-strings      open   always open: it adds strings only for the patterns the class passes to matches, split, ..., once
    "#]].assert_eq(&render(&gates_of(&db, "sushi/IntTree")));
}
