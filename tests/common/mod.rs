//! Helpers shared by the integration tests: each test that needs them declares `mod common;`.

pub mod snapshot;
