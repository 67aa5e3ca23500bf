//! System properties: `System.getProperty`, `setProperty`, `clearProperty`, `getProperties` (a
//! modelled `java.util.Properties`) and `jdk.internal.misc.VM.getSavedProperty`, all answering
//! from one fixed table ([`SYSTEM_PROPERTIES`]) of what a Linux JDK 17 worker has, so that the
//! JDK's own initialisers (`StaticProperty`, `GetPropertyAction`, `Charset`, `File`, `Locale`) and
//! the classes under test run on in a replay. The properties that vary between machines and runs
//! (directories, user, JDK build) have fixed placeholders instead of the worker's values: a
//! replay must give the same path with 1 and 2 workers and on every machine, and a replay that
//! then differs from the JVM is caught by DSE's confirmation there (docs/dse.md, "What is
//! modelled and what concretises").

use crate::heap::{Obj, StrVal};
use crate::interp::{Machine, Res, unsupported};
use crate::models::ModelResult;
use crate::value::{ObjId, Slot};

/// The system properties a replay sees, key and value, in key order. The first group is what
/// every Linux JDK 17 worker has, with its real value; the second varies between machines, runs
/// or JDK builds and has a fixed placeholder (the `/suitesmith/...` paths exist nowhere, on
/// purpose: a replay must not depend on the machine's files). A key not here is unset: `null`, as
/// the JVM answers for a property nobody set (`user.country`, `user.timezone` and
/// `java.security.manager` are unset in the workers too; `user.timezone` is set only once
/// `TimeZone` has asked the OS, which no replay does).
pub const SYSTEM_PROPERTIES: &[(&str, &str)] = &[
    // Fixed by the platform (Linux, x86-64, JDK 17) and by the workers' command line
    // (crates/worker `process.rs`: `-Dfile.encoding=UTF-8`, the guarded file system provider).
    ("file.encoding", "UTF-8"),
    ("file.separator", "/"),
    ("java.class.version", "61.0"),
    ("java.nio.file.spi.DefaultFileSystemProvider", "suitesmith.rt.GuardedFileSystemProvider"),
    ("java.specification.name", "Java Platform API Specification"),
    ("java.specification.vendor", "Oracle Corporation"),
    ("java.specification.version", "17"),
    ("java.vm.specification.name", "Java Virtual Machine Specification"),
    ("java.vm.specification.vendor", "Oracle Corporation"),
    ("java.vm.specification.version", "17"),
    ("jdk.debug", "release"),
    ("line.separator", "\n"),
    ("native.encoding", "UTF-8"),
    ("os.arch", "amd64"),
    ("os.name", "Linux"),
    ("path.separator", ":"),
    ("sun.arch.data.model", "64"),
    ("sun.cpu.endian", "little"),
    ("sun.io.unicode.encoding", "UnicodeLittle"),
    ("sun.jnu.encoding", "UTF-8"),
    ("user.language", "en"),
    // Placeholders: the worker's own values differ between machines, users, JDK builds and
    // (`java.io.tmpdir`, a scratch directory per worker) between runs.
    ("java.class.path", "/suitesmith/runtime.jar"),
    ("java.home", "/suitesmith/java-home"),
    ("java.io.tmpdir", "/suitesmith/tmp"),
    ("java.library.path", "/suitesmith/lib"),
    ("java.runtime.name", "OpenJDK Runtime Environment"),
    ("java.runtime.version", "17+0"),
    ("java.vendor", "suitesmith"),
    ("java.vendor.url", "https://suitesmith.invalid/"),
    ("java.version", "17"),
    ("java.version.date", "2021-09-14"),
    ("java.vm.info", "mixed mode"),
    ("java.vm.name", "OpenJDK 64-Bit Server VM"),
    ("java.vm.vendor", "suitesmith"),
    ("java.vm.version", "17+0"),
    ("os.version", "6.0"),
    ("sun.boot.library.path", "/suitesmith/java-home/lib"),
    ("user.dir", "/suitesmith/dir"),
    ("user.home", "/suitesmith/home"),
    ("user.name", "suitesmith"),
];

/// The value of a system property in every replay, `None` when it is unset ([`SYSTEM_PROPERTIES`]).
pub fn system_property(key: &str) -> Option<&'static str> {
    SYSTEM_PROPERTIES.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
}

/// Where the system `Properties` object lives: `System.props`, as in the JDK.
const PROPS: &str = "java/lang/System.props";

/// The field of the system `Properties` object holding a key's current value (set, cleared, or
/// read once from the table): the string object it answers is then the same on every call.
fn entry(key: &str) -> String {
    format!("suitesmith.property {key}")
}

impl Machine<'_, '_> {
    /// `System.getProperty`, `setProperty`, `clearProperty`, `getProperties`; `None` for the
    /// other methods of `System`.
    pub(crate) fn system_property_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        if matches!(name, "getProperty" | "setProperty" | "clearProperty")
            && let Err(e) = self.system_key(args[0])
        {
            return Some(Err(e));
        }
        let r = match (name, desc) {
            ("getProperty", "(Ljava/lang/String;)Ljava/lang/String;") => self.property(args[0], None),
            ("getProperty", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;") => {
                self.property(args[0], Some(args[1]))
            }
            ("setProperty", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;") => {
                self.set_property(args[0], Some(args[1]))
            }
            ("clearProperty", "(Ljava/lang/String;)Ljava/lang/String;") => self.set_property(args[0], None),
            ("getProperties", "()Ljava/util/Properties;") => Ok(Slot::obj(self.system_properties())),
            _ => return None,
        };
        Some(r.map(Some))
    }

    /// `jdk.internal.misc.VM.getSavedProperty`: the table as the JVM started with it (no
    /// `setProperty` reaches the saved copy).
    pub(crate) fn saved_property_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        if (name, desc) != ("getSavedProperty", "(Ljava/lang/String;)Ljava/lang/String;") {
            return None;
        }
        let r = self.property_key(args[0]).map(|key| match system_property(&key) {
            Some(v) => Some(self.new_rust_string(v)),
            None => Some(Slot::null()),
        });
        Some(r)
    }

    /// The methods of `java.util.Properties` on the system properties object (`None` on any
    /// other `Properties`, whose own bytecode runs). A method not modelled here stops the
    /// replay: the object has none of the fields the JDK's code would read.
    pub(crate) fn properties_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        let this = args.first()?.as_ref()?;
        if self.heap.statics.get(PROPS).and_then(|s| s.as_ref()) != Some(this) {
            return None;
        }
        let string_key =
            args.get(1).and_then(|k| k.as_ref()).is_some_and(|k| matches!(self.heap.get(k), Obj::Str(_)));
        let r = match (name, desc) {
            ("getProperty", "(Ljava/lang/String;)Ljava/lang/String;") => self.property(args[1], None),
            ("getProperty", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/String;") => {
                self.property(args[1], Some(args[2]))
            }
            ("get", "(Ljava/lang/Object;)Ljava/lang/Object;") if !string_key => Ok(Slot::null()),
            ("get", "(Ljava/lang/Object;)Ljava/lang/Object;") => self.property(args[1], None),
            ("getOrDefault", _) if !string_key => Ok(args[2]),
            ("getOrDefault", _) => self.property(args[1], Some(args[2])),
            ("containsKey", "(Ljava/lang/Object;)Z") if !string_key => Ok(Slot::int(0)),
            ("containsKey", "(Ljava/lang/Object;)Z") => {
                self.property(args[1], None).map(|v| Slot::int(i32::from(v.as_ref().is_some())))
            }
            ("setProperty", "(Ljava/lang/String;Ljava/lang/String;)Ljava/lang/Object;")
            | ("put", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;")
                if string_key =>
            {
                self.set_property(args[1], Some(args[2]))
            }
            ("remove", "(Ljava/lang/Object;)Ljava/lang/Object;") if string_key => {
                self.set_property(args[1], None)
            }
            _ => unsupported(format!("unmodelled System.getProperties().{name}{desc}")),
        };
        Some(r.map(Some))
    }

    /// The system `Properties` object, made on first use.
    fn system_properties(&mut self) -> ObjId {
        if let Some(o) = self.heap.statics.get(PROPS).and_then(|s| s.as_ref()) {
            return o;
        }
        let o = self
            .heap
            .alloc(Obj::Inst { class: "java/util/Properties".to_string(), fields: Default::default() });
        self.heap.statics.insert(PROPS.to_string(), Slot::obj(o));
        o
    }

    /// A property's key as text: `NullPointerException` for null (as `System.getProperty` and
    /// `Properties` throw), a symbolic key pinned to its concrete value (the table is not a
    /// constraint the solver could use).
    fn property_key(&mut self, key: Slot) -> Res<String> {
        let Some(k) = key.as_ref() else {
            return self.throw_new("java/lang/NullPointerException", "key can't be null");
        };
        let sv: StrVal = self.concrete_str(k)?;
        Ok(sv.to_rust())
    }

    /// `System`'s check of a key (`System.checkKey`): not null, not empty.
    fn system_key(&mut self, key: Slot) -> Res<()> {
        let text = self.property_key(key)?;
        if text.is_empty() {
            return self.throw_new("java/lang/IllegalArgumentException", "key can't be empty");
        }
        Ok(())
    }

    /// The current value of a property (`def` when it is unset, if given).
    fn property(&mut self, key: Slot, def: Option<Slot>) -> Res<Slot> {
        let key = self.property_key(key)?;
        let props = self.system_properties();
        let field = entry(&key);
        let v = match self.heap.get(props) {
            Obj::Inst { fields, .. } => fields.get(&field).copied(),
            _ => None,
        };
        let v = match v {
            Some(v) => v,
            None => {
                let v = match system_property(&key) {
                    Some(text) => self.new_rust_string(text),
                    None => Slot::null(),
                };
                self.put_entry(props, field, v);
                v
            }
        };
        Ok(match def {
            Some(d) if v.as_ref().is_none() => d,
            _ => v,
        })
    }

    /// Sets (`Some`) or clears (`None`) a property for the rest of the replay; the previous value.
    fn set_property(&mut self, key: Slot, value: Option<Slot>) -> Res<Slot> {
        if let Some(v) = value
            && v.as_ref().is_none()
        {
            return self.throw_new("java/lang/NullPointerException", "value can't be null");
        }
        let old = self.property(key, None)?;
        let key = self.property_key(key)?;
        let props = self.system_properties();
        self.put_entry(props, entry(&key), value.unwrap_or(Slot::null()));
        Ok(old)
    }

    fn put_entry(&mut self, props: ObjId, field: String, v: Slot) {
        if let Obj::Inst { fields, .. } = self.heap.get_mut(props) {
            fields.insert(field, v);
        }
    }
}
