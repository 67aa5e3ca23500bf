//! `java.util.logging.Logger` as class initialisers use it (`private static final Logger LOG =
//! Logger.getLogger(...)`, Guava's `Ordering`, `Stopwatch`): `getLogger` makes a logger object
//! without `LogManager` (whose set-up reads configuration files and starts threads), and its
//! logging methods are no-ops (the workers' log output is nobody's observation), `isLoggable`
//! answering as the default configuration does: `INFO` and above. Anything else on such a
//! logger stops the replay.

use crate::heap::Obj;
use crate::interp::{Machine, Res, unsupported};
use crate::models::ModelResult;
use crate::value::Slot;

/// The field marking a logger made by this model, holding its name.
const NAME: &str = "suitesmith.logger.name";

/// `Level.INFO.intValue()`: the root logger's level in the default `logging.properties`.
const INFO: i32 = 800;

impl Machine<'_, '_> {
    pub(crate) fn logger_model(&mut self, name: &str, desc: &str, args: &[Slot]) -> ModelResult {
        if name == "getLogger" && desc.starts_with("(Ljava/lang/String;") {
            return Some(self.new_logger(args[0]).map(Some));
        }
        let this = args.first()?.as_ref()?;
        let logger_name = match self.heap.get(this) {
            Obj::Inst { fields, .. } => *fields.get(NAME)?,
            _ => return None,
        };
        let r = match name {
            "isLoggable" => self.level_value(args[1]).map(|v| Some(Slot::int(i32::from(v >= INFO)))),
            "getName" => Ok(Some(logger_name)),
            "log" | "logp" | "logrb" | "severe" | "warning" | "info" | "config" | "fine" | "finer"
            | "finest" | "entering" | "exiting" | "throwing" => Ok(None),
            _ => unsupported(format!("unmodelled Logger.{name}{desc} of a modelled logger")),
        };
        Some(r)
    }

    /// `Logger.getLogger(name)`: a new logger per call (the JVM's are one per name, which only
    /// `==` between two of them could tell).
    fn new_logger(&mut self, name: Slot) -> Res<Slot> {
        if name.as_ref().is_none() {
            return self.throw_new("java/lang/NullPointerException", "logger name is null");
        }
        let mut fields = std::collections::BTreeMap::new();
        fields.insert(NAME.to_string(), name);
        let o = self.heap.alloc(Obj::Inst { class: "java/util/logging/Logger".to_string(), fields });
        Ok(Slot::obj(o))
    }

    /// A `Level`'s value. The program database holds java.base only, where `Level` is not: its
    /// constants read as null there, so a null level stops the replay rather than throw.
    fn level_value(&mut self, level: Slot) -> Res<i32> {
        if level.as_ref().is_none() && self.db.class_id("java/util/logging/Level").is_none() {
            return unsupported("java.util.logging.Level (not in java.base)");
        }
        if level.as_ref().is_none() {
            return self.throw_new("java/lang/NullPointerException", "level is null");
        }
        let v = self.get_field(level, "java/util/logging/Level", "value", "I")?;
        Ok(self.pin(v).as_int())
    }
}
