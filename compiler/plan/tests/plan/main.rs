//! The plan's tests: hand-built graphs with exact expected kernels and
//! offsets, a property test over random graphs, and the real models. Every
//! plan is also checked by `check`, which re-derives the invariants from
//! the model on its own.

mod check;
mod examples;
mod models;
mod properties;
