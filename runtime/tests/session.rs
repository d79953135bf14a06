//! The session against hand-written models: Rust `extern "C"` functions with
//! `__omlc_main`'s signature and hand-built `omlc_model_info`s, used only
//! through the crate's public API — what the JIT will do with generated
//! code.

use std::ffi::{c_char, c_void, CString};
use std::sync::Arc;

use onnx_mlc_dialect::ElemType;
use onnx_mlc_runtime::abi::{
    self, OmlcIoInfo, OmlcModelInfo, OmlcRt, OmlcTensor, ABI_VERSION, OMLC_ERR_UNSUPPORTED,
};
use onnx_mlc_runtime::{
    omlc_rt_alloc, omlc_rt_parallel_for, CompiledCode, RtContext, RuntimeError, Session,
    SharedWeight, SpecDim, Tensor, Weights,
};

/// An input or output: name, dtype and dims ("N" for a dim_param, "?" for
/// unknown, digits for static).
struct Io {
    name: CString,
    dtype: i32,
    dims: Vec<i64>,
    _params: Vec<Option<CString>>,
    param_ptrs: Vec<*const c_char>,
}

impl Io {
    fn new(name: &str, elem: ElemType, dims: &[&str]) -> Io {
        let params: Vec<Option<CString>> = dims
            .iter()
            .map(|d| match *d {
                "?" => None,
                d if d.parse::<i64>().is_ok() => None,
                d => Some(CString::new(d).unwrap()),
            })
            .collect();
        Io {
            name: CString::new(name).unwrap(),
            dtype: elem.onnx_code(),
            dims: dims.iter().map(|d| d.parse().unwrap_or(-1)).collect(),
            param_ptrs: params
                .iter()
                .map(|p| p.as_ref().map_or(std::ptr::null(), |p| p.as_ptr()))
                .collect(),
            _params: params,
        }
    }

    fn info(&self) -> OmlcIoInfo {
        OmlcIoInfo {
            name: self.name.as_ptr(),
            dtype: self.dtype,
            rank: self.dims.len() as i32,
            dims: self.dims.as_ptr(),
            dim_params: self.param_ptrs.as_ptr(),
        }
    }
}

/// An `omlc_model_info` and the memory it points into.
struct OwnedInfo {
    _ios: Vec<Io>,
    _io_infos: Vec<OmlcIoInfo>,
    _offsets: Vec<u64>,
    _blob: Option<Tensor>,
    info: OmlcModelInfo,
}

// SAFETY: the raw pointers address the struct's own heap data, never written.
unsafe impl Send for OwnedInfo {}
// SAFETY: as above.
unsafe impl Sync for OwnedInfo {}

/// A model description: inputs, outputs, workspace bytes and the weights
/// (each padded to 64 bytes in the embedded blob).
fn model_info(inputs: Vec<Io>, outputs: Vec<Io>, workspace: u64, weights: &[&[f32]]) -> OwnedInfo {
    let mut blob = Vec::new();
    let mut offsets = Vec::new();
    for w in weights {
        offsets.push((blob.len() * 4) as u64);
        blob.extend_from_slice(w);
        blob.resize(blob.len().div_ceil(16) * 16, 0.0);
    }
    let blob =
        (!weights.is_empty()).then(|| Tensor::from_slice(&[blob.len() as i64], &blob).unwrap());
    let (n_in, n_out) = (inputs.len(), outputs.len());
    let ios: Vec<Io> = inputs.into_iter().chain(outputs).collect();
    let io_infos: Vec<OmlcIoInfo> = ios.iter().map(Io::info).collect();
    let info = OmlcModelInfo {
        abi_version: ABI_VERSION,
        num_inputs: n_in as i32,
        num_outputs: n_out as i32,
        inputs: io_infos.as_ptr(),
        outputs: io_infos[n_in..].as_ptr(),
        workspace_size: workspace,
        num_weights: weights.len() as i32,
        weight_offsets: offsets.as_ptr(),
        weights_size: blob.as_ref().map_or(0, |b| b.as_bytes().len() as u64),
        weights_blob: blob
            .as_ref()
            .map_or(std::ptr::null(), |b| b.as_bytes().as_ptr()),
        weights_file: std::ptr::null(),
    };
    OwnedInfo {
        _ios: ios,
        _io_infos: io_infos,
        _offsets: offsets,
        _blob: blob,
        info,
    }
}

fn session(
    info: OwnedInfo,
    main: abi::MainFn,
    weights: Weights,
    threads: usize,
) -> Result<Session, RuntimeError> {
    let info = Arc::new(info);
    let code = CompiledCode {
        info: &info.info,
        main,
        owner: info.clone(),
    };
    // SAFETY: `info` describes `main` and lives as long as the session.
    unsafe { Session::new(code, weights, Arc::new(RtContext::new(threads)?)) }
}

// ---------------------------------------------------------------------------
// The "affine" model:
//   inputs  a: f32["N", 3], b: f32["N", 3]; weight w: f32[3]
//   outputs sum: f32["N", 3] = a + b + w   (rows in parallel)
//           total: f32[]     = sum of sum
//           pos: i64["K"]    = flat indices where sum > 0 (data-dependent)
// It fails with OMLC_ERR_UNSUPPORTED when a[0] is NaN, after allocating.
// The loop's context lives in the workspace, so runs that shared a
// workspace would mix up their inputs.

#[repr(C)]
struct RowJob {
    a: *const f32,
    b: *const f32,
    w: *const f32,
    sum: *mut f32,
}

unsafe extern "C" fn row_task(ctx: *mut c_void, begin: i64, end: i64) {
    // SAFETY: `affine_main` passes its `RowJob`, whose buffers have N rows.
    unsafe {
        let job = &*ctx.cast::<RowJob>();
        for i in begin as usize * 3..end as usize * 3 {
            *job.sum.add(i) = *job.a.add(i) + *job.b.add(i) + *job.w.add(i % 3);
        }
    }
}

unsafe extern "C" fn affine_main(
    inputs: *const OmlcTensor,
    outputs: *mut OmlcTensor,
    workspace: *mut u8,
    weights: *const *const c_void,
    rt: *mut OmlcRt,
) -> i32 {
    // SAFETY: the runtime passes 2 validated inputs, 3 outputs, a 64-byte
    // workspace and 1 weight, as `affine_info` declares.
    unsafe {
        let ins = std::slice::from_raw_parts(inputs, 2);
        let outs = std::slice::from_raw_parts_mut(outputs, 3);
        let n = *ins[0].shape;
        let len = n as usize * 3;
        let a = ins[0].data.cast::<f32>();
        if n > 0 && (*a).is_nan() {
            outs[2].data = omlc_rt_alloc(rt, 8, 64); // the runtime must free it
            return OMLC_ERR_UNSUPPORTED;
        }
        if outs[0].data.is_null() {
            return abi::OMLC_ERR_INTERNAL; // N is bound by the inputs: preallocated
        }
        *outs[0].shape = n;
        *outs[0].shape.add(1) = 3;
        let job = workspace.cast::<RowJob>();
        job.write(RowJob {
            a,
            b: ins[1].data.cast(),
            w: (*weights).cast(),
            sum: outs[0].data.cast(),
        });
        omlc_rt_parallel_for(rt, Some(row_task), job.cast(), n);
        let sum = std::slice::from_raw_parts(outs[0].data.cast::<f32>(), len);
        *outs[1].data.cast::<f32>() = sum.iter().sum();
        let pos: Vec<i64> = (0..len as i64).filter(|&i| sum[i as usize] > 0.0).collect();
        let data = omlc_rt_alloc(rt, pos.len() as u64 * 8, 64).cast::<i64>();
        if data.is_null() {
            return abi::OMLC_ERR_ALLOC;
        }
        data.copy_from_nonoverlapping(pos.as_ptr(), pos.len());
        outs[2].data = data.cast();
        *outs[2].shape = pos.len() as i64;
        0
    }
}

const W: [f32; 3] = [0.5, -1.0, 2.0];

fn affine_info() -> OwnedInfo {
    model_info(
        vec![
            Io::new("a", ElemType::F32, &["N", "3"]),
            Io::new("b", ElemType::F32, &["N", "3"]),
        ],
        vec![
            Io::new("sum", ElemType::F32, &["N", "3"]),
            Io::new("total", ElemType::F32, &[]),
            Io::new("pos", ElemType::I64, &["K"]),
        ],
        64,
        &[&W],
    )
}

fn affine(threads: usize) -> Session {
    session(affine_info(), affine_main, Weights::Embedded, threads).unwrap()
}

/// Inputs of `n` rows derived from `seed`, and the expected outputs.
fn affine_case(n: usize, seed: f32) -> ([Tensor; 2], Vec<f32>, f32, Vec<i64>) {
    let a: Vec<f32> = (0..n * 3).map(|i| (i as f32 * 0.37 + seed).sin()).collect();
    let b: Vec<f32> = (0..n * 3)
        .map(|i| (i as f32 * 0.11 - seed).cos() * 0.5)
        .collect();
    let sum: Vec<f32> = (0..n * 3).map(|i| a[i] + b[i] + W[i % 3]).collect();
    let total = sum.iter().sum();
    let pos = (0..n * 3)
        .filter(|&i| sum[i] > 0.0)
        .map(|i| i as i64)
        .collect();
    let shape = [n as i64, 3];
    let inputs = [
        Tensor::from_slice(&shape, &a).unwrap(),
        Tensor::from_slice(&shape, &b).unwrap(),
    ];
    (inputs, sum, total, pos)
}

fn check_affine(outputs: &[Tensor], n: usize, sum: &[f32], total: f32, pos: &[i64]) {
    assert_eq!(outputs.len(), 3);
    assert_eq!(outputs[0].shape(), &[n as i64, 3]);
    assert_eq!(outputs[0].as_slice::<f32>().unwrap(), sum);
    assert_eq!(outputs[1].shape(), &[] as &[i64]);
    assert_eq!(outputs[1].as_slice::<f32>().unwrap(), &[total]);
    assert_eq!(outputs[2].shape(), &[pos.len() as i64]);
    assert_eq!(outputs[2].as_slice::<i64>().unwrap(), pos);
}

#[test]
fn the_signature_is_read_from_the_model_info() {
    let s = affine(1);
    let sig = s.signature();
    assert_eq!(sig.inputs[0].to_string(), "\"a\": tensor<\"N\"x3xf32>");
    assert_eq!(sig.outputs[1].to_string(), "\"total\": tensor<f32>");
    assert_eq!(sig.outputs[2].dims, [SpecDim::Param("K".into())]);
    assert_eq!(
        (
            sig.workspace_size,
            sig.num_weights,
            sig.weights_file.as_deref()
        ),
        (64, 1, None)
    );
}

#[test]
fn runs_with_one_and_many_threads() {
    for threads in [1, 2, 4] {
        let s = affine(threads);
        assert_eq!(s.rt().threads(), threads);
        for n in [0, 1, 5, 100] {
            let (inputs, sum, total, pos) = affine_case(n, 0.25);
            check_affine(&s.run(&inputs).unwrap(), n, &sum, total, &pos);
        }
    }
}

#[test]
fn named_inputs_run() {
    let s = affine(2);
    let (inputs, sum, total, pos) = affine_case(4, 1.0);
    let out = s
        .run_named(&[("b", &inputs[1]), ("a", &inputs[0])])
        .unwrap();
    check_affine(&out, 4, &sum, total, &pos);
    assert_eq!(
        s.run_named(&[("a", &inputs[0])]).unwrap_err().to_string(),
        "input \"b\" missing"
    );
}

#[test]
fn invalid_inputs_never_reach_the_model() {
    let s = affine(2);
    let (inputs, ..) = affine_case(2, 0.0);
    let err = |inputs: &[Tensor]| s.run(inputs).unwrap_err().to_string();
    assert_eq!(err(&inputs[..1]), "expected 2 inputs, got 1");
    let wrong_type = Tensor::zeros(ElemType::F64, &[2, 3]).unwrap();
    assert_eq!(
        err(&[inputs[0].clone(), wrong_type]),
        "input \"b\": expected element type f32, got f64"
    );
    let wrong_rank = Tensor::zeros(ElemType::F32, &[6]).unwrap();
    assert_eq!(
        err(&[wrong_rank, inputs[1].clone()]),
        "input \"a\": expected rank 2, got 1"
    );
    let wrong_dim = Tensor::zeros(ElemType::F32, &[2, 4]).unwrap();
    assert_eq!(
        err(&[wrong_dim, inputs[1].clone()]),
        "input \"a\": dim 1 must be 3, got 4"
    );
    let other_n = Tensor::zeros(ElemType::F32, &[5, 3]).unwrap();
    assert_eq!(
        err(&[inputs[0].clone(), other_n]),
        "input \"b\": dim 0 (\"N\") is 5, but input \"a\" dim 0 bound \"N\" to 2"
    );
}

#[test]
fn model_errors_are_reported_and_its_allocations_freed() {
    let s = affine(2);
    let (mut inputs, ..) = affine_case(3, 0.0);
    inputs[0].as_mut_slice::<f32>().unwrap()[0] = f32::NAN;
    assert_eq!(
        s.run(&inputs).unwrap_err(),
        RuntimeError::Model {
            code: OMLC_ERR_UNSUPPORTED,
            name: "OMLC_ERR_UNSUPPORTED",
            meaning: "the input values need something the compiled code lacks",
        }
    );
    // The session still works afterwards.
    let (inputs, sum, total, pos) = affine_case(3, 0.0);
    check_affine(&s.run(&inputs).unwrap(), 3, &sum, total, &pos);
}

#[test]
fn weights_can_be_given_as_tensors() {
    let w = Tensor::from_slice(&[3], &W).unwrap();
    let s = session(affine_info(), affine_main, Weights::Tensors(vec![w]), 2).unwrap();
    let (inputs, sum, total, pos) = affine_case(7, 2.0);
    check_affine(&s.run(&inputs).unwrap(), 7, &sum, total, &pos);
    let err = session(affine_info(), affine_main, Weights::Tensors(vec![]), 1)
        .err()
        .unwrap();
    assert_eq!(err.to_string(), "the model has 1 weights, got 0");
}

#[test]
fn weights_can_be_read_where_another_session_holds_them() {
    let w = Tensor::from_slice(&[3], &W).unwrap();
    let first = session(affine_info(), affine_main, Weights::Tensors(vec![w]), 1).unwrap();
    let held = first.weight(0).expect("a weight the session copied");
    assert_eq!(
        held.as_bytes(),
        Tensor::from_slice(&[3], &W).unwrap().as_bytes()
    );
    let shared = Weights::Shared(vec![SharedWeight::Held(held.clone())]);
    let second = session(affine_info(), affine_main, shared, 1).unwrap();
    // The second session reads the first one's copy, which stays alive
    // for it when the first session is gone.
    let again = second.weight(0).unwrap();
    assert_eq!(again.as_bytes().as_ptr(), held.as_bytes().as_ptr());
    drop((first, held));
    let (inputs, sum, total, pos) = affine_case(5, 2.0);
    check_affine(&second.run(&inputs).unwrap(), 5, &sum, total, &pos);
    let own = SharedWeight::Own(Tensor::from_slice(&[3], &W).unwrap());
    let third = session(affine_info(), affine_main, Weights::Shared(vec![own]), 1).unwrap();
    assert_ne!(
        third.weight(0).unwrap().as_bytes().as_ptr(),
        again.as_bytes().as_ptr()
    );
    check_affine(&third.run(&inputs).unwrap(), 5, &sum, total, &pos);
    assert!(session(affine_info(), affine_main, Weights::Shared(vec![]), 1).is_err());
}

#[test]
fn concurrent_runs_on_one_session() {
    let s = Arc::new(affine(3));
    let threads: Vec<_> = (0..6)
        .map(|t| {
            let s = Arc::clone(&s);
            std::thread::spawn(move || {
                for i in 0..40 {
                    let n = 1 + (t * 7 + i * 3) % 50;
                    let (inputs, sum, total, pos) = affine_case(n, t as f32 + i as f32 * 0.01);
                    check_affine(&s.run(&inputs).unwrap(), n, &sum, total, &pos);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}

// ---------------------------------------------------------------------------
// Models that break the ABI: the session reports them instead of trusting
// them. One output y: f32["K"].

fn one_output_info() -> OwnedInfo {
    model_info(vec![], vec![Io::new("y", ElemType::F32, &["K"])], 0, &[])
}

unsafe extern "C" fn forgets_the_shape(
    _: *const OmlcTensor,
    outputs: *mut OmlcTensor,
    _: *mut u8,
    _: *const *const c_void,
    rt: *mut OmlcRt,
) -> i32 {
    // SAFETY: one output, as `one_output_info` declares.
    unsafe { (*outputs).data = omlc_rt_alloc(rt, 16, 64) };
    0
}

unsafe extern "C" fn allocates_too_little(
    _: *const OmlcTensor,
    outputs: *mut OmlcTensor,
    _: *mut u8,
    _: *const *const c_void,
    rt: *mut OmlcRt,
) -> i32 {
    // SAFETY: one output, as `one_output_info` declares.
    unsafe {
        (*outputs).data = omlc_rt_alloc(rt, 16, 64);
        *(*outputs).shape = 5;
    }
    0
}

unsafe extern "C" fn returns_no_data(
    _: *const OmlcTensor,
    outputs: *mut OmlcTensor,
    _: *mut u8,
    _: *const *const c_void,
    _: *mut OmlcRt,
) -> i32 {
    // SAFETY: one output, as `one_output_info` declares.
    unsafe { *(*outputs).shape = 0 };
    0
}

/// For an output of static shape `[1]`. (Its block leaks: the runtime cannot
/// know where a pointer it did not hand out came from.)
unsafe extern "C" fn replaces_the_buffer(
    _: *const OmlcTensor,
    outputs: *mut OmlcTensor,
    _: *mut u8,
    _: *const *const c_void,
    rt: *mut OmlcRt,
) -> i32 {
    // SAFETY: one output of rank 1.
    unsafe {
        (*outputs).data = omlc_rt_alloc(rt, 4, 64);
        *(*outputs).shape = 1;
    }
    0
}

#[test]
fn broken_outputs_are_errors() {
    let static_output = model_info(vec![], vec![Io::new("y", ElemType::F32, &["1"])], 0, &[]);
    let s = session(static_output, replaces_the_buffer, Weights::Embedded, 1).unwrap();
    assert_eq!(
        s.run(&[]).unwrap_err().to_string(),
        "output \"y\": the model replaced the buffer it was given"
    );

    let run = |main| {
        session(one_output_info(), main, Weights::Embedded, 1)
            .unwrap()
            .run(&[])
    };
    assert_eq!(
        run(forgets_the_shape).unwrap_err().to_string(),
        "output \"y\": the model wrote shape [-1], but dim 0 must be non-negative"
    );
    assert_eq!(
        run(allocates_too_little).unwrap_err().to_string(),
        "output \"y\": the model allocated 16 bytes for shape [5], which needs 20"
    );
    assert_eq!(
        run(returns_no_data).unwrap_err().to_string(),
        "output \"y\": the model returned no data"
    );
}

#[test]
fn malformed_model_infos_are_rejected() {
    let new = |info: OwnedInfo| {
        session(info, returns_no_data, Weights::Embedded, 1)
            .err()
            .unwrap()
            .to_string()
    };

    let mut info = one_output_info();
    info.info.abi_version = ABI_VERSION + 1;
    assert_eq!(
        new(info),
        "invalid model info: ABI version 3, this runtime implements 2"
    );

    let mut info = one_output_info();
    info.info.num_inputs = 1;
    info.info.inputs = std::ptr::null();
    assert_eq!(
        new(info),
        "invalid model info: inputs: NULL array of 1 entries"
    );

    let mut bad_dim = Io::new("y", ElemType::F32, &["K"]);
    bad_dim.dims[0] = 4;
    assert_eq!(
        new(model_info(vec![], vec![bad_dim], 0, &[])),
        "invalid model info: output \"y\": dim 0 is 4 with a dim_param entry"
    );

    let mut bad_type = Io::new("y", ElemType::F32, &["K"]);
    bad_type.dtype = 99;
    assert_eq!(
        new(model_info(vec![], vec![bad_type], 0, &[])),
        "invalid model info: output \"y\": unknown dtype 99"
    );

    let strings = Io::new("s", ElemType::String, &["2"]);
    assert_eq!(
        new(model_info(vec![strings], vec![], 0, &[])),
        "string inputs and outputs are not supported by the runtime yet"
    );

    let mut info = model_info(vec![], vec![], 0, &[&[1.0]]);
    info.info.weights_blob = std::ptr::null();
    assert_eq!(
        new(info),
        "invalid model info: the weights are not embedded (weights_blob is NULL)"
    );

    let mut info = model_info(vec![], vec![], 0, &[&[1.0]]);
    info.info.weights_size = 0;
    info._offsets[0] = 8;
    assert_eq!(
        new(info),
        "invalid model info: weight 0 at offset 8 is outside the 0-byte blob"
    );
}
