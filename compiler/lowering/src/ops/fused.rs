//! The optimizer's internal fused ops (the dialect's `ops/fused.rs`, whose
//! header is the contract): so far FusedConv.
//!
//! | op | lowered as |
//! |----|------------|
//! | FusedConv(X, W, B?, Z?) | the Conv root (`conv::conv`, bias in its initial value), then one elementwise op `act(y + Z)` updating it in place — the root's first epilogue |
//!
//! Activations (`activation`, `activation_params`): every one the contract
//! lists (`Relu`, `LeakyRelu`, `Sigmoid`, `Tanh`, `Clip`, `HardSigmoid`,
//! `HardSwish`, `Silu`, `Gelu`, `GeluTanh`), computed per element by
//! [`activation`].

use melior::ir::{Value as MValue, ValueLike};
use onnx_mlc_dialect::ir::OpId;

use super::conv::{self, generic};
use super::elementwise::identity_map;
use super::unsupported;
use crate::emit::Emitter;
use crate::error::Result;
use crate::kernel::KernelBuilder;

/// Lowers a FusedConv.
pub(crate) fn lower_fused_conv(kb: &mut KernelBuilder, op: OpId) -> Result<()> {
    let data = kb.model.ir.op(op).clone();
    let y = data.results[0].expect("Y is produced");
    let residual = data.inputs.get(3).copied().flatten();
    let name = data.attrs.string("activation").unwrap_or("").to_string();
    let params: Vec<f64> = data
        .attrs
        .floats("activation_params")
        .unwrap_or(&[])
        .iter()
        .map(|&p| p as f64)
        .collect();
    if !ACTIVATIONS.contains(&name.as_str()) {
        return Err(unsupported(kb, op, &format!("unknown activation '{name}'")));
    }
    let mut result = conv::conv(kb, op)?;
    if residual.is_some() || !name.is_empty() {
        let (yd, elem) = kb.shape(y)?;
        let rank = yd.len();
        let e = kb.e;
        let ins: Vec<MValue> = residual.iter().map(|&z| kb.tensor(z)).collect();
        let maps = vec![identity_map(rank); ins.len() + 1];
        let iterators = format!(
            "[{}]",
            vec!["#linalg.iterator_type<parallel>"; rank].join(", ")
        );
        let has_residual = residual.is_some();
        let epilogue = generic(e, &ins, result, &maps, &iterators, |be, args| {
            let acc = *args.last().expect("the output");
            let v = if has_residual {
                be.same("arith.addf", &[acc, args[0]])
            } else {
                acc
            };
            let v = activation(be, &name, &params, v);
            be.append(be.op("linalg.yield", &[v], &[], &[]));
        });
        result = kb
            .elementwise(epilogue, &yd, elem.bit_width())
            .result(0)
            .expect("one result")
            .into();
    }
    kb.define(y, result);
    Ok(())
}

/// The activations of the contract.
const ACTIVATIONS: &[&str] = &[
    "",
    "Relu",
    "LeakyRelu",
    "Sigmoid",
    "Tanh",
    "Clip",
    "HardSigmoid",
    "HardSwish",
    "Silu",
    "Gelu",
    "GeluTanh",
];

/// `act(x)` for a float scalar `x`; `params` as the contract gives them
/// (the dialect verified their number).
pub(crate) fn activation<'c, 'b>(
    e: Emitter<'c, 'b>,
    name: &str,
    params: &[f64],
    x: MValue<'c, 'b>,
) -> MValue<'c, 'b> {
    let ty = x.r#type();
    let fl = |v: f64| e.f(ty, v);
    let sigmoid = |v: MValue<'c, 'b>| {
        let exp = e.same("math.exp", &[e.same("arith.negf", &[v])]);
        e.same(
            "arith.divf",
            &[fl(1.0), e.same("arith.addf", &[fl(1.0), exp])],
        )
    };
    let clamp = |v: MValue<'c, 'b>, lo: f64, hi: f64| {
        e.same(
            "arith.minimumf",
            &[e.same("arith.maximumf", &[v, fl(lo)]), fl(hi)],
        )
    };
    match name {
        "Relu" => e.same("arith.maximumf", &[x, fl(0.0)]),
        "LeakyRelu" => {
            let neg = e.same("arith.mulf", &[x, fl(params[0])]);
            e.select(e.cmp("arith.cmpf", 2, x, fl(0.0)), x, neg)
        }
        "Sigmoid" => sigmoid(x),
        "Tanh" => e.same("math.tanh", &[x]),
        "Clip" => clamp(x, params[0], params[1]),
        "HardSigmoid" => {
            let v = e.same(
                "arith.addf",
                &[e.same("arith.mulf", &[x, fl(params[0])]), fl(params[1])],
            );
            clamp(v, 0.0, 1.0)
        }
        "HardSwish" => {
            let v = e.same(
                "arith.addf",
                &[e.same("arith.mulf", &[x, fl(1.0 / 6.0)]), fl(0.5)],
            );
            e.same("arith.mulf", &[x, clamp(v, 0.0, 1.0)])
        }
        "Silu" => e.same("arith.mulf", &[x, sigmoid(x)]),
        "Gelu" | "GeluTanh" => {
            let inner = if name == "Gelu" {
                e.same(
                    "math.erf",
                    &[e.same("arith.mulf", &[x, fl(std::f64::consts::FRAC_1_SQRT_2)])],
                )
            } else {
                let x3 = e.same("arith.mulf", &[x, e.same("arith.mulf", &[x, x])]);
                let u = e.same(
                    "arith.addf",
                    &[x, e.same("arith.mulf", &[x3, fl(0.044715)])],
                );
                e.same(
                    "math.tanh",
                    &[e.same("arith.mulf", &[u, fl((2.0 / std::f64::consts::PI).sqrt())])],
                )
            };
            e.same(
                "arith.mulf",
                &[
                    e.same("arith.mulf", &[x, fl(0.5)]),
                    e.same("arith.addf", &[inner, fl(1.0)]),
                ],
            )
        }
        _ => x,
    }
}
