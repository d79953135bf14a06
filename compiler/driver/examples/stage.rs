//! Prints one stage of the pipeline for a model:
//! `cargo run -p onnx-mlc --example stage -- model.onnx affine`.

use onnx_mlc::pipeline::{compile_to_llvm, prepare, PipelineOptions, Stage};
use onnx_mlc::Engine;
use onnx_mlc_codegen::glue::Weights;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(stage)) = (args.next(), args.next()) else {
        return Err("usage: stage <model.onnx> <onnx|plan|linalg|affine|llvm-mlir|llvm>".into());
    };
    let stage = Stage::from_name(&stage).ok_or("unknown stage")?;
    let mut model = Engine::load(&path)?;
    prepare(&mut model)?;
    let options = PipelineOptions {
        print_after: vec![stage],
        ..PipelineOptions::default()
    };
    let llcx = inkwell::context::Context::create();
    let mut timings = onnx_mlc::Timings::default();
    let result = compile_to_llvm(
        &llcx,
        &model,
        &options,
        Weights::Runtime,
        &mut timings,
        &mut |_, text| println!("{text}"),
    );
    result.map(drop).map_err(Into::into)
}
