//! Concrete JDK classes for the abstract JDK types that parameters commonly have. EvoSuite finds
//! these by scanning the classpath (`ConcreteClassAnalyzer`); for the JDK a fixed table is enough
//! and keeps clusters small and deterministic. Every class named here is public in `java.base`.

/// Concrete implementations to use for an abstract JDK type (binary name), in preference order.
pub(crate) fn implementations(abstract_type: &str) -> &'static [&'static str] {
    match abstract_type {
        "java.lang.Object" => &["java.lang.Object", "java.lang.String", "java.lang.Integer"],
        "java.lang.CharSequence" => &["java.lang.String", "java.lang.StringBuilder"],
        "java.lang.Comparable" => &["java.lang.Integer", "java.lang.String"],
        "java.lang.Number" => &["java.lang.Integer", "java.lang.Long", "java.lang.Double"],
        "java.lang.Appendable" => &["java.lang.StringBuilder"],
        "java.io.Serializable" => &["java.lang.String", "java.lang.Integer"],
        "java.lang.Iterable" | "java.util.Collection" => &["java.util.ArrayList"],
        "java.util.List" | "java.util.AbstractList" => &["java.util.ArrayList", "java.util.LinkedList"],
        "java.util.Set" | "java.util.AbstractSet" => &["java.util.HashSet", "java.util.LinkedHashSet"],
        "java.util.SortedSet" | "java.util.NavigableSet" => &["java.util.TreeSet"],
        "java.util.Map" | "java.util.AbstractMap" => &["java.util.HashMap", "java.util.LinkedHashMap"],
        "java.util.SortedMap" | "java.util.NavigableMap" => &["java.util.TreeMap"],
        "java.util.Queue" => &["java.util.ArrayDeque", "java.util.LinkedList"],
        "java.util.Deque" => &["java.util.ArrayDeque"],
        "java.util.concurrent.ConcurrentMap" => &["java.util.concurrent.ConcurrentHashMap"],
        "java.io.InputStream" => &["java.io.ByteArrayInputStream"],
        "java.io.OutputStream" => &["java.io.ByteArrayOutputStream"],
        "java.io.Reader" => &["java.io.StringReader"],
        "java.io.Writer" => &["java.io.StringWriter"],
        "java.util.Random" => &["java.util.Random"],
        // Exceptions as values (Guava's `Throwables.throwIfUnchecked`, commons-lang3's
        // `ExceptionUtils`): the kinds code tells apart, checked, unchecked and errors; the class
        // itself first where it is concrete.
        "java.lang.Throwable" => &[
            "java.lang.Throwable",
            "java.lang.Exception",
            "java.lang.RuntimeException",
            "java.lang.Error",
            "java.io.IOException",
        ],
        "java.lang.Exception" => {
            &["java.lang.Exception", "java.lang.RuntimeException", "java.io.IOException"]
        }
        // The options of `java.nio.file.Files` (Guava's `MoreFiles.asByteSource(Path,
        // OpenOption...)`): the JDK's enums; a stub of these marker interfaces only makes
        // `Files` throw.
        "java.nio.file.OpenOption" => &["java.nio.file.StandardOpenOption", "java.nio.file.LinkOption"],
        "java.nio.file.CopyOption" => &["java.nio.file.StandardCopyOption", "java.nio.file.LinkOption"],
        // A type passed as a value: a class literal is a `Type`.
        "java.lang.reflect.Type" => &["java.lang.Class"],
        // Their public factories (`jdk_factories`) make these; the subclass stands for the type.
        "java.time.ZoneId" => &["java.time.ZoneOffset"],
        "java.util.TimeZone" => &["java.util.SimpleTimeZone"],
        // The interfaces of `java.time.temporal` and `java.time.chrono`, which date-time
        // libraries take (ThreeTen-Extra's `DayOfMonth.isSupported(TemporalField)`,
        // `Minutes.from(TemporalAmount)`, a chronology's `date(TemporalAccessor)`): the JDK's
        // enums of fields and units, and its date-time classes, made by their factories.
        "java.time.temporal.TemporalField" => &["java.time.temporal.ChronoField"],
        "java.time.temporal.TemporalUnit" => &["java.time.temporal.ChronoUnit"],
        "java.time.temporal.TemporalAccessor" | "java.time.temporal.Temporal" => &[
            "java.time.LocalDate",
            "java.time.LocalDateTime",
            "java.time.ZonedDateTime",
            "java.time.Instant",
            "java.time.LocalTime",
        ],
        "java.time.temporal.TemporalAdjuster" => {
            &["java.time.LocalDate", "java.time.LocalTime", "java.time.DayOfWeek"]
        }
        "java.time.temporal.TemporalAmount" => &["java.time.Duration", "java.time.Period"],
        "java.time.chrono.ChronoLocalDate" => &["java.time.LocalDate"],
        "java.time.chrono.ChronoLocalDateTime" => &["java.time.LocalDateTime"],
        "java.time.chrono.ChronoZonedDateTime" => &["java.time.ZonedDateTime"],
        "java.time.chrono.ChronoPeriod" => &["java.time.Period"],
        "java.time.chrono.Era" => &["java.time.chrono.IsoEra"],
        _ => &[],
    }
}

/// Abstract JDK types that get a stub beside the implementations of `implementations` (with
/// `--stubs on`): the interfaces of `java.time`. The others do not: a stub of `InputStream`
/// answers `read()` forever. A stub of `TemporalAccessor` answers fields no JDK class has
/// (`DayOfMonth.from`'s failure paths), a stub of `TemporalField` is a field that is not a
/// `ChronoField` (`field.isSupportedBy(this)`), and a stub of `TemporalAmount` lists units of its
/// own: `PeriodDuration.from` sums them in a loop that a `Duration` or `Period` skips.
pub(crate) fn stub_beside_implementations(abstract_type: &str) -> bool {
    abstract_type.starts_with("java.time.")
}

/// JDK classes whose static methods (named in `jdk_factories`) make values of an interface
/// they do not implement: `TemporalQueries.precision()` is a `TemporalQuery`,
/// `TemporalAdjusters.firstDayOfMonth()` a `TemporalAdjuster`.
pub(crate) fn factory_classes(interface: &str) -> &'static [&'static str] {
    match interface {
        "java.time.temporal.TemporalQuery" => &["java.time.temporal.TemporalQueries"],
        "java.time.temporal.TemporalAdjuster" => &["java.time.temporal.TemporalAdjusters"],
        _ => &[],
    }
}

/// Whether a class belongs to the JDK (its implementations come from the table, not a scan).
pub(crate) fn is_jdk(name: &str) -> bool {
    name.starts_with("java.")
        || name.starts_with("javax.")
        || name.starts_with("jdk.")
        || name.starts_with("sun.")
}

/// Constructors of JDK classes that read the real clock or fresh entropy (`new Date()`, `new
/// Random()`, ...). The worker runs a test's statements itself, outside any class the guards rewrite,
/// so such a statement would put a different value into every run: the value pool, the outputs and
/// the written assertions would depend on when the search ran (gson's `ISO8601Utils.format(new
/// Date())` made two same-seed runs differ). EvoSuite replaces these classes with mocks; we leave the
/// constructors out of the cluster, and the deterministic ones (`new Date(long)`, `new Random(long)`)
/// stay. `class` is a binary name, `descriptor` the constructor's JVM descriptor.
pub(crate) fn is_nondeterministic_constructor(class: &str, descriptor: &str) -> bool {
    match class {
        "java.util.Date" | "java.util.Random" | "java.util.SplittableRandom" => descriptor == "()V",
        "java.util.GregorianCalendar" => matches!(
            descriptor,
            "()V"
                | "(Ljava/util/TimeZone;)V"
                | "(Ljava/util/Locale;)V"
                | "(Ljava/util/TimeZone;Ljava/util/Locale;)V"
        ),
        // Seeded or not, a SecureRandom's output is never reproducible.
        "java.security.SecureRandom" => true,
        _ => false,
    }
}

/// Constructors of JDK classes that open a file by name, `File` or `Path` (`new PrintStream("1d")`,
/// `new FileWriter(file)`, `new Scanner(path)`), or a file descriptor. The worker runs a test's
/// statements outside the guards, so such a constructor creates its file in the worker's working
/// directory, and the written test creates it in the user's: verification then drops the test
/// ("the test left 1 file(s) behind"), and the coverage the search counted for it is lost
/// (Commons Collections' `MapUtils.verbosePrint(PrintStream, ..)` lost 9 of its tests at 120 s).
/// Reading a named file is no better: what it reads depends on the machine. The in-memory
/// constructors stay (`new PrintStream(OutputStream)`, `new Scanner(String)`), and files the code
/// under test should read or write come from `--files` (docs/files.md). `class` is a binary name,
/// `descriptor` the constructor's JVM descriptor.
pub(crate) fn is_file_constructor(class: &str, descriptor: &str) -> bool {
    const NAMES: [&str; 3] = ["(Ljava/lang/String;", "(Ljava/io/File;", "(Ljava/nio/file/Path;"];
    let names_a_file = || NAMES.iter().any(|p| descriptor.starts_with(p));
    match class {
        // Every constructor of these opens a file (or a descriptor: `FileDescriptor.out`).
        "java.io.FileInputStream"
        | "java.io.FileOutputStream"
        | "java.io.FileReader"
        | "java.io.FileWriter"
        | "java.io.RandomAccessFile"
        | "java.util.logging.FileHandler"
        | "java.util.zip.ZipFile"
        | "java.util.jar.JarFile" => true,
        // A first `String` is a file name for these.
        "java.io.PrintStream" | "java.io.PrintWriter" | "java.util.Formatter" => names_a_file(),
        // `Scanner(String)` reads the string itself.
        "java.util.Scanner" => descriptor.starts_with(NAMES[1]) || descriptor.starts_with(NAMES[2]),
        _ => false,
    }
}

/// Instance methods of JDK classes used as modifiers: the ones that fill containers. EvoSuite adds
/// every public method of a dependency; for the JDK that would flood the cluster with `String`'s
/// hundred methods, so only these are kept.
pub(crate) fn is_jdk_modifier(name: &str) -> bool {
    matches!(name, "add" | "put" | "append" | "push" | "offer")
}

/// Public static factories of JDK value classes, by class (binary name): the methods a user writes
/// to make such a value (`Duration.ofSeconds(90)`, `LocalDate.ofEpochDay(19000)`,
/// `Charset.forName("UTF-8")`), for classes that have no public constructor or whose constructors
/// are not how they are made. A factory is used only where it returns its own
/// class. Every one is deterministic: nothing that reads the clock (`now`), the default zone or
/// locale, fresh entropy (`randomUUID`), the network (`InetAddress.getByName`) or files.
pub(crate) fn jdk_factories(class: &str) -> &'static [&'static str] {
    match class {
        "java.time.Duration" => &["ofDays", "ofHours", "ofMinutes", "ofSeconds", "ofMillis", "ofNanos"],
        "java.time.Period" => &["of", "ofDays", "ofWeeks", "ofMonths", "ofYears"],
        "java.time.LocalDate" => &["of", "ofEpochDay", "ofYearDay"],
        "java.time.LocalTime" => &["of", "ofSecondOfDay"],
        "java.time.LocalDateTime" => &["of", "ofEpochSecond"],
        "java.time.Instant" => &["ofEpochSecond", "ofEpochMilli"],
        // With the zone given (a `ZoneOffset`), never the default one. `ofInstant` is valid for
        // any instant and offset: ta4j's bar series need end times that differ.
        "java.time.ZonedDateTime" | "java.time.OffsetDateTime" => &["of", "ofInstant"],
        "java.time.ZoneOffset" => &["ofHours", "ofHoursMinutes", "ofTotalSeconds"],
        "java.time.Year" | "java.time.YearMonth" | "java.time.MonthDay" => &["of"],
        "java.time.Clock" => &["fixed", "offset"],
        "java.math.BigDecimal" | "java.math.BigInteger" => &["valueOf"],
        "java.net.URI" => &["create"],
        "java.util.UUID" => &["nameUUIDFromBytes", "fromString"],
        "java.util.Locale" => &["forLanguageTag", "of"],
        "java.util.TimeZone" => &["getTimeZone"],
        "java.util.Currency" => &["getInstance"],
        "java.util.Optional" => &["of", "ofNullable", "empty"],
        // An abstract class: these are its only makers (`E` an enum of the cluster, or TimeUnit).
        "java.util.EnumSet" => &["noneOf", "allOf", "of", "range", "copyOf", "complementOf"],
        "java.util.OptionalInt" | "java.util.OptionalLong" | "java.util.OptionalDouble" => &["of", "empty"],
        "java.nio.charset.Charset" => &["forName"],
        // A root (`/`), a relative or an empty path: what a scratch file never is (the guards
        // refuse writes to them all).
        "java.nio.file.Path" => &["of"],
        "java.util.regex.Pattern" => &["compile"],
        // With the address given, no name service is asked.
        "java.net.InetAddress" => &["getByAddress"],
        // Not `allocate`: a random capacity is a random amount of the worker's heap.
        "java.nio.ByteBuffer" | "java.nio.CharBuffer" => &["wrap"],
        // `factory_classes`: each query and adjuster without a zone or clock of its own.
        "java.time.temporal.TemporalQueries" => {
            &["chronology", "precision", "zone", "zoneId", "offset", "localDate", "localTime"]
        }
        "java.time.temporal.TemporalAdjusters" => &[
            "firstDayOfMonth",
            "lastDayOfMonth",
            "firstDayOfNextMonth",
            "firstDayOfYear",
            "lastDayOfYear",
            "next",
            "previousOrSame",
        ],
        _ => &[],
    }
}
