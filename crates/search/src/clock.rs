//! The time source of a search, injected so that tests control it (STYLE.md A9): the engine passes
//! a `SystemClock`; tests pass a clock they advance, or rely on an evaluation budget.

use std::time::{Duration, Instant};

/// Time elapsed since the search started.
pub trait Clock {
    fn elapsed(&self) -> Duration;
}

/// Wall time since `SystemClock::start`.
#[derive(Debug, Clone, Copy)]
pub struct SystemClock {
    start: Instant,
}

impl SystemClock {
    pub fn start() -> SystemClock {
        SystemClock { start: Instant::now() }
    }
}

impl Clock for SystemClock {
    fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}
