//! The plan's tests: hand-built graphs with exact expected kernels and
//! offsets, and a property test over random graphs. Every plan is also
//! checked by `onnx_mlc_tests::plan_check`, which re-derives the invariants
//! from the model on its own. (The real models' plans are tested with the
//! models, in the driver's `pipeline` tests.)

mod examples;
mod properties;
