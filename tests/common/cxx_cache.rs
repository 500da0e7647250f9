#![allow(dead_code)] // each test binary uses part of it
//! The compiler cache the C++ tests put in front of the C++ compiler: ccache when it is
//! installed (CI installs it) and `PLC_CCACHE` is not `0`. The CPU runtime is the same in
//! every test program and every harness, so with the cache it is compiled once per set of
//! flags instead of once per build.

use std::process::Command;

/// `ccache`, when it is wanted and found.
pub fn launcher() -> Option<&'static str> {
    static FOUND: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let wanted = std::env::var("PLC_CCACHE").map_or(true, |v| v != "0");
    let found =
        *FOUND.get_or_init(|| Command::new("ccache").arg("--version").output().is_ok_and(|o| o.status.success()));
    (wanted && found).then_some("ccache")
}

/// A command running the C++ compiler `cxx` through the cache when there is one.
pub fn command(cxx: &str) -> Command {
    match launcher() {
        Some(cache) => {
            let mut cmd = Command::new(cache);
            cmd.arg(cxx);
            cmd
        }
        None => Command::new(cxx),
    }
}
