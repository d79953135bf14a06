//! One equivalence test per rule, in the manner of egg's `tests/math.rs`:
//! a start term, the rules to run, and a term the start must become equal
//! to (or, for negative tests, must not). Terms are in the syntax of
//! `onnx_mlc_optimizer::expr`.

use onnx_mlc_optimizer::expr;
use onnx_mlc_optimizer::rules::{rules_of, RuleSet};
use onnx_mlc_optimizer::run::{saturate, Limits};

/// Runs the named rules on `start` and checks whether it became equal to
/// `expected`.
fn check(opset: i64, names: &[&str], decls: &str, start: &str, expected: &str, equal: bool) {
    let all = rules_of(&RuleSet::ALL);
    let rules: Vec<_> = names
        .iter()
        .map(|n| {
            all.iter()
                .find(|r| r.name == *n)
                .unwrap_or_else(|| panic!("no rule {n}"))
                .clone()
        })
        .collect();
    let (mut eg, inputs) = expr::egraph(decls, opset).unwrap();
    let root = expr::add(&mut eg, &inputs, start).unwrap();
    eg.rebuild();
    let run = saturate(&mut eg, &rules, &Limits::default());
    assert!(
        eg.analysis.problems.is_empty(),
        "{:?}",
        eg.analysis.problems
    );
    let want = expr::add(&mut eg, &inputs, expected).unwrap();
    eg.rebuild();
    assert_eq!(
        eg.find(root) == eg.find(want),
        equal,
        "{names:?}: {start} {} {expected} (applied: {:?})",
        if equal {
            "should become"
        } else {
            "should not become"
        },
        run.applied
    );
}

macro_rules! equiv {
    ($test:ident: $($rule:literal),+; $decls:literal; $start:literal => $expected:literal) => {
        #[test]
        fn $test() {
            check(17, &[$($rule),+], $decls, $start, $expected, true)
        }
    };
    ($test:ident: $($rule:literal),+; $decls:literal; $start:literal => not $expected:literal) => {
        #[test]
        fn $test() {
            check(17, &[$($rule),+], $decls, $start, $expected, false)
        }
    };
    ($test:ident @ $opset:literal: $($rule:literal),+; $decls:literal; $start:literal => $expected:literal) => {
        #[test]
        fn $test() {
            check($opset, &[$($rule),+], $decls, $start, $expected, true)
        }
    };
}

// algebraic
equiv!(add_zero: "add-zero"; "x: 2x3xf32"; "(Add %x 0)" => "%x");
equiv!(add_zero_that_broadcasts_stays: "add-zero"; "x: 3xf32"; "(Add %x fill(0, 2x3xf32))" => not "%x");
equiv!(zero_add: "zero-add"; "x: 2x3xf32"; "(Add 0 %x)" => "%x");
equiv!(sub_zero: "sub-zero"; "x: 2x3xf32"; "(Sub %x fill(0, 3xf32))" => "%x");
equiv!(mul_one: "mul-one"; "x: 2x3xf32"; "(Mul %x 1)" => "%x");
equiv!(one_mul: "one-mul"; "x: 2x3xf32"; "(Mul 1 %x)" => "%x");
equiv!(mul_by_two_stays: "mul-one"; "x: 2x3xf32"; "(Mul %x 2)" => not "%x");
equiv!(div_one: "div-one"; "x: 2x3xf32"; "(Div %x 1)" => "%x");
equiv!(pow_one: "pow-one"; "x: 2x3xf32"; "(Pow %x 1)" => "%x");
equiv!(pow_two: "pow-two"; "x: 2x3xf32"; "(Pow %x 2)" => "(Mul %x %x)");
equiv!(div_const: "div-const"; "x: 2x3xf32"; "(Div %x 4)" => "(Mul %x 0.25)");
equiv!(div_int_const_stays: "div-const"; "x: 2x3xi64"; "(Div %x 4:i64)" => not "(Mul %x (Reciprocal 4:i64))");
equiv!(neg_neg: "neg-neg"; "x: 2x3xf32"; "(Neg (Neg %x))" => "%x");
equiv!(identity: "identity"; "x: 2x3xf32"; "(Identity %x)" => "%x");
equiv!(dropout: "dropout"; "x: 2x3xf32"; "(Dropout %x)" => "%x");
equiv!(dropout_training_stays: "dropout"; "x: 2x3xf32"; "(Dropout %x 0.5 1:i1)" => not "%x");
equiv!(transpose_transpose: "transpose-transpose"; "x: 2x3x4xf32"; "(Transpose[perm=[1,0,2]] (Transpose[perm=[0,2,1]] %x))" => "(Transpose[perm=[2,0,1]] %x)");
equiv!(transpose_default_perms: "transpose-transpose", "transpose-identity"; "x: 2x3x4xf32"; "(Transpose (Transpose %x))" => "%x");
equiv!(transpose_identity: "transpose-identity"; "x: 2x3xf32"; "(Transpose[perm=[0,1]] %x)" => "%x");
equiv!(reshape_reshape: "reshape-reshape"; "x: 2x3x4xf32"; "(Reshape (Reshape %x [6,4]:i64) [4,6]:i64)" => "(Reshape %x [4,6]:i64)");
equiv!(reshape_zero_copy_stays: "reshape-reshape"; "x: 2x3x4xf32"; "(Reshape (Reshape %x [6,4]:i64) [0,-1]:i64)" => not "(Reshape %x [0,-1]:i64)");
equiv!(reshape_noop: "reshape-noop"; "x: 2x3xf32"; "(Reshape %x [2,-1]:i64)" => "%x");
equiv!(flatten_noop: "flatten-noop"; "x: 2x3xf32"; "(Flatten %x)" => "%x");
equiv!(squeeze_noop: "squeeze-noop"; "x: 2x3xf32"; "(Squeeze %x)" => "%x");
equiv!(expand_noop: "expand-noop"; "x: 2x3xf32"; "(Expand %x [1,3]:i64)" => "%x");
equiv!(cast_noop: "cast-noop"; "x: 2x3xf32"; "(Cast[to=1] %x)" => "%x");
equiv!(cast_cast: "cast-cast"; "x: 4xf16"; "(Cast[to=10] (Cast[to=1] %x))" => "(Cast[to=10] %x)");
equiv!(cast_narrowing_stays: "cast-cast"; "x: 4xf32"; "(Cast[to=1] (Cast[to=10] %x))" => not "(Cast[to=1] %x)");
equiv!(mul_const_assoc: "mul-const-assoc"; "x: 2x3xf32"; "(Mul (Mul %x 2) 3)" => "(Mul %x 6)");
equiv!(add_const_assoc: "add-const-assoc"; "x: 2x3xf32"; "(Add (Add %x 2) [1,2,3])" => "(Add %x [3,4,5])");
equiv!(mul_add_distribute: "mul-add-distribute"; "x: 2x3xf32"; "(Add (Mul %x 2) (Mul %x 3))" => "(Mul %x 5)");
equiv!(matmul_add_distribute: "matmul-add-distribute"; "x: 2x3xf32"; "(Add (MatMul %x fill(1, 3x4xf32)) (MatMul %x fill(2, 3x4xf32)))" => "(MatMul %x fill(3, 3x4xf32))");
equiv!(matmul_scalars: "matmul-scalars"; "q: 2x3xf32, k: 3x4xf32"; "(MatMul (Mul %q 0.5) (Mul %k 0.25))" => "(Mul (MatMul %q %k) 0.125)");

// canonical
equiv!(gelu_erf: "gelu-erf"; "x: 2x8xf32"; "(Mul (Mul %x (Add (Erf (Div %x 1.4142135)) 1)) 0.5)" => "(omlc.Activation[activation=\"Gelu\"] %x)");
equiv!(gelu_erf_half_first: "gelu-erf-half-first"; "x: 2x8xf32"; "(Mul (Mul %x 0.5) (Add (Erf (Div %x 1.4142135)) 1))" => "(omlc.Activation[activation=\"Gelu\"] %x)");
equiv!(gelu_with_wrong_constant_stays: "gelu-erf"; "x: 2x8xf32"; "(Mul (Mul %x (Add (Erf (Div %x 1.5)) 1)) 0.5)" => not "(omlc.Activation[activation=\"Gelu\"] %x)");
equiv!(gelu_tanh: "gelu-tanh"; "x: 2x8xf32"; "(Mul (Mul %x 0.5) (Add (Tanh (Mul (Add %x (Mul (Pow %x 3) 0.044715)) 0.7978846)) 1))" => "(omlc.Activation[activation=\"GeluTanh\"] %x)");
equiv!(silu: "silu"; "x: 2x8xf32"; "(Mul %x (Sigmoid %x))" => "(omlc.Activation[activation=\"Silu\"] %x)");
equiv!(silu_swapped: "silu-swapped"; "x: 2x8xf32"; "(Mul (Sigmoid %x) %x)" => "(omlc.Activation[activation=\"Silu\"] %x)");
equiv!(hardswish: "hardswish"; "x: 2x8xf32"; "(Div (Mul %x (Clip (Add %x 3) 0 6)) 6)" => "(HardSwish %x)");
equiv!(layernorm: "layernorm"; "x: 2x8xf32"; "(Div (Sub %x (ReduceMean[axes=[-1]] %x)) (Sqrt (Add (ReduceMean[axes=[-1]] (Pow (Sub %x (ReduceMean[axes=[-1]] %x)) 2)) 0.001)))" => "(LayerNormalization[epsilon=0.001] %x fill(1, 8xf32) fill(0, 8xf32))");
equiv!(layernorm_over_other_axis_stays: "layernorm"; "x: 2x8xf32"; "(Div (Sub %x (ReduceMean[axes=[0]] %x)) (Sqrt (Add (ReduceMean[axes=[0]] (Pow (Sub %x (ReduceMean[axes=[0]] %x)) 2)) 0.001)))" => not "(LayerNormalization[epsilon=0.001] %x fill(1, 8xf32) fill(0, 8xf32))");
equiv!(layernorm_axes_operand @ 18: "layernorm-axes-operand"; "x: 2x8xf32"; "(Div (Sub %x (ReduceMean %x [-1]:i64)) (Sqrt (Add (ReduceMean (Pow (Sub %x (ReduceMean %x [-1]:i64)) 2) [-1]:i64) 0.001)))" => "(LayerNormalization[epsilon=0.001] %x fill(1, 8xf32) fill(0, 8xf32))");
equiv!(layernorm_scale: "layernorm-scale"; "x: 2x8xf32"; "(Mul (LayerNormalization %x fill(1, 8xf32) fill(1, 8xf32)) fill(2, 8xf32))" => "(LayerNormalization %x fill(2, 8xf32) fill(2, 8xf32))");
equiv!(layernorm_shift: "layernorm-shift"; "x: 2x8xf32"; "(Add (LayerNormalization %x fill(1, 8xf32) fill(1, 8xf32)) 2)" => "(LayerNormalization %x fill(1, 8xf32) fill(3, 8xf32))");

// fusion
equiv!(relu_act: "relu-act"; "x: 2x3xf32"; "(Relu %x)" => "(omlc.Activation[activation=\"Relu\"] %x)");
equiv!(relu_on_ints_stays: "relu-act"; "x: 2x3xi32"; "(Relu %x)" => not "(omlc.Activation[activation=\"Relu\"] %x)");
equiv!(sigmoid_act: "sigmoid-act"; "x: 2x3xf32"; "(Sigmoid %x)" => "(omlc.Activation[activation=\"Sigmoid\"] %x)");
equiv!(tanh_act: "tanh-act"; "x: 2x3xf32"; "(Tanh %x)" => "(omlc.Activation[activation=\"Tanh\"] %x)");
equiv!(hardswish_act: "hardswish-act"; "x: 2x3xf32"; "(HardSwish %x)" => "(omlc.Activation[activation=\"HardSwish\"] %x)");
equiv!(leakyrelu_act: "leakyrelu-act"; "x: 2x3xf32"; "(LeakyRelu[alpha=0.1] %x)" => "(omlc.Activation[activation=\"LeakyRelu\", activation_params=[0.1]] %x)");
equiv!(hardsigmoid_act: "hardsigmoid-act"; "x: 2x3xf32"; "(HardSigmoid %x)" => "(omlc.Activation[activation=\"HardSigmoid\", activation_params=[0.2, 0.5]] %x)");
equiv!(clip_act: "clip-act"; "x: 2x3xf32"; "(Clip %x 0 6)" => "(omlc.Activation[activation=\"Clip\", activation_params=[0.0, 6.0]] %x)");
equiv!(clip_with_tensor_bound_stays: "clip-act"; "x: 2x3xf32, hi: f32"; "(Clip %x 0 %hi)" => not "(omlc.Activation[activation=\"Clip\", activation_params=[0.0, 6.0]] %x)");
equiv!(gelu_act @ 20: "gelu-act"; "x: 2x3xf32"; "(Gelu[approximate=\"tanh\"] %x)" => "(omlc.Activation[activation=\"GeluTanh\"] %x)");
equiv!(matmul_add_gemm: "matmul-add-gemm"; "a: 2x3xf32"; "(Add (MatMul %a rand(1, 3x4xf32)) rand(2, 4xf32))" => "(Gemm %a rand(1, 3x4xf32) rand(2, 4xf32))");
equiv!(add_matmul_gemm: "add-matmul-gemm"; "a: 2x3xf32"; "(Add rand(2, 4xf32) (MatMul %a rand(1, 3x4xf32)))" => "(Gemm %a rand(1, 3x4xf32) rand(2, 4xf32))");
equiv!(matmul_add_3d_is_no_gemm: "matmul-add-gemm"; "a: 5x2x3xf32"; "(Add (MatMul %a rand(1, 3x4xf32)) rand(2, 4xf32))" => not "(Gemm %a rand(1, 3x4xf32) rand(2, 4xf32))");
equiv!(matmul_bias: "matmul-bias"; "a: 5x2x3xf32"; "(Add (MatMul %a rand(1, 3x4xf32)) rand(2, 4xf32))" => "(omlc.FusedMatMul %a rand(1, 3x4xf32) rand(2, 4xf32))");
equiv!(bias_matmul: "bias-matmul"; "a: 5x2x3xf32"; "(Add rand(2, 4xf32) (MatMul %a rand(1, 3x4xf32)))" => "(omlc.FusedMatMul %a rand(1, 3x4xf32) rand(2, 4xf32))");
equiv!(int_matmul_bias_stays: "matmul-bias"; "a: 5x2x3xi32, b: 3x4xi32, c: 4xi32"; "(Add (MatMul %a %b) %c)" => not "(omlc.FusedMatMul %a %b %c)");
equiv!(matmul_broadcasting_add_stays: "matmul-bias"; "a: 2x3xf32, c: 5x2x4xf32"; "(Add (MatMul %a rand(1, 3x4xf32)) %c)" => not "(omlc.FusedMatMul %a rand(1, 3x4xf32) %c)");
equiv!(matmul_act: "relu-act", "matmul-act"; "a: 2x3xf32, b: 3x4xf32"; "(Relu (MatMul %a %b))" => "(omlc.FusedMatMul[activation=\"Relu\"] %a %b)");
equiv!(fusedmatmul_act: "matmul-bias", "fusedmatmul-act"; "a: 5x2x3xf32"; "(omlc.Activation[activation=\"Gelu\"] (Add (MatMul %a rand(1, 3x4xf32)) rand(2, 4xf32)))" => "(omlc.FusedMatMul[activation=\"Gelu\"] %a rand(1, 3x4xf32) rand(2, 4xf32))");
equiv!(fusedmatmul_act_residual: "fusedmatmul-act"; "a: 4x3xf32, b: 2x3x5xf32, z: 2x4x5xf32"; "(omlc.Activation[activation=\"Relu\"] (omlc.FusedMatMul %a %b rand(1, 4x1xf32) %z))" => "(omlc.FusedMatMul[activation=\"Relu\"] %a %b rand(1, 4x1xf32) %z)");
equiv!(gemm_act: "relu-act", "gemm-act"; "a: 2x3xf32, b: 4x3xf32"; "(Relu (Gemm[transB=1, alpha=2.0] %a %b))" => "(omlc.FusedGemm[transB=1, alpha=2.0, activation=\"Relu\"] %a %b)");
equiv!(conv_act: "relu-act", "conv-act"; "x: 1x3x8x8xf32"; "(Relu (Conv[pads=[1,1,1,1]] %x rand(1, 4x3x3x3xf32) rand(2, 4xf32)))" => "(omlc.FusedConv[pads=[1,1,1,1], activation=\"Relu\"] %x rand(1, 4x3x3x3xf32) rand(2, 4xf32))");
equiv!(fusedconv_act: "relu-act", "conv-residual", "fusedconv-act"; "x: 1x3x8x8xf32, z: 1x4x6x6xf32"; "(Relu (Add (Conv %x rand(1, 4x3x3x3xf32)) %z))" => "(omlc.FusedConv[activation=\"Relu\"] %x rand(1, 4x3x3x3xf32) none %z)");
equiv!(conv_residual: "conv-residual"; "x: 1x3x8x8xf32, z: 1x4x6x6xf32"; "(Add (Conv %x rand(1, 4x3x3x3xf32) rand(2, 4xf32)) %z)" => "(omlc.FusedConv %x rand(1, 4x3x3x3xf32) rand(2, 4xf32) %z)");
equiv!(residual_conv: "residual-conv"; "x: 1x3x8x8xf32, z: 1x4x6x6xf32"; "(Add %z (Conv %x rand(1, 4x3x3x3xf32) rand(2, 4xf32)))" => "(omlc.FusedConv %x rand(1, 4x3x3x3xf32) rand(2, 4xf32) %z)");
equiv!(conv_broadcast_add_is_no_residual: "conv-residual"; "x: 1x3x8x8xf32, z: 1x1x6x6xf32"; "(Add (Conv %x rand(1, 4x3x3x3xf32) rand(2, 4xf32)) %z)" => not "(omlc.FusedConv %x rand(1, 4x3x3x3xf32) rand(2, 4xf32) %z)");
equiv!(batchnorm_affine: "batchnorm-affine"; "y: 1x4x5x5xf32"; "(BatchNormalization[epsilon=0.0] %y fill(2, 4xf32) fill(3, 4xf32) fill(1, 4xf32) fill(4, 4xf32))" => "(Add (Mul %y fill(1, 4x1x1xf32)) fill(2, 4x1x1xf32))");
equiv!(conv_mul: "conv-mul"; "x: 1x3x8x8xf32"; "(Mul (Conv %x fill(1, 4x3x3x3xf32) fill(1, 4xf32)) fill(2, 4x1x1xf32))" => "(Conv %x fill(2, 4x3x3x3xf32) fill(2, 4xf32))");
equiv!(conv_mul_spatial_stays: "conv-mul"; "x: 1x3x8x8xf32"; "(Mul (Conv %x fill(1, 4x3x3x3xf32) fill(1, 4xf32)) fill(2, 6x6xf32))" => not "(Conv %x fill(2, 4x3x3x3xf32) fill(2, 4xf32))");
equiv!(conv_add: "conv-add"; "x: 1x3x8x8xf32"; "(Add (Conv %x fill(1, 4x3x3x3xf32)) fill(2, 1x4x1x1xf32))" => "(Conv %x fill(1, 4x3x3x3xf32) fill(2, 4xf32))");
equiv!(conv_batchnorm: "batchnorm-affine", "conv-mul", "conv-add"; "x: 1x3x8x8xf32"; "(BatchNormalization[epsilon=0.0] (Conv %x fill(1, 4x3x3x3xf32) fill(1, 4xf32)) fill(2, 4xf32) fill(3, 4xf32) fill(1, 4xf32) fill(4, 4xf32))" => "(Conv %x fill(1, 4x3x3x3xf32) fill(3, 4xf32))");
equiv!(attention: "attention"; "q: 1x2x4x8xf32, kt: 1x2x8x4xf32, v: 1x2x4x8xf32, m: 1x1x4x4xf32"; "(MatMul (Softmax[axis=-1] (Add (Mul (MatMul %q %kt) 0.125) %m)) %v)" => "(omlc.FusedAttention[scale=0.125] %q %kt %v %m)");
equiv!(attention_unmasked: "attention-unmasked"; "q: 2x4x8xf32, kt: 2x8x4xf32, v: 2x4x8xf32"; "(MatMul (Softmax (Mul (MatMul %q %kt) 0.125)) %v)" => "(omlc.FusedAttention[scale=0.125] %q %kt %v)");
equiv!(attention_unscaled: "attention-unscaled"; "q: 2x4x8xf32, kt: 2x8x4xf32, v: 2x4x8xf32, m: 4x4xf32"; "(MatMul (Softmax (Add (MatMul %q %kt) %m)) %v)" => "(omlc.FusedAttention %q %kt %v %m)");
equiv!(attention_plain: "attention-plain"; "q: 2x4x8xf32, kt: 2x8x4xf32, v: 2x4x8xf32"; "(MatMul (Softmax (MatMul %q %kt)) %v)" => "(omlc.FusedAttention %q %kt %v)");
equiv!(attention_softmax_over_queries_stays: "attention-plain"; "q: 2x4x8xf32, kt: 2x8x4xf32, v: 2x4x8xf32"; "(MatMul (Softmax[axis=1] (MatMul %q %kt)) %v)" => not "(omlc.FusedAttention %q %kt %v)");
equiv!(attention_half_stays: "attention-plain"; "q: 2x4x8xf16, kt: 2x8x4xf16, v: 2x4x8xf16"; "(MatMul (Softmax (MatMul %q %kt)) %v)" => not "(omlc.FusedAttention %q %kt %v)");
equiv!(attention_mask_widening_scores_stays: "attention-unscaled"; "q: 2x4x8xf32, kt: 2x8x4xf32, v: 2x4x8xf32, m: 3x2x4x4xf32"; "(MatMul (Softmax (Add (MatMul %q %kt) %m)) %v)" => not "(omlc.FusedAttention %q %kt %v %m)");

// layout
equiv!(transpose_sink_unary: "transpose-sink-unary"; "x: 2x3xf32"; "(Relu (Transpose[perm=[1,0]] %x))" => "(Transpose[perm=[1,0]] (Relu %x))");
equiv!(transpose_sink_quantize: "transpose-sink-quantize"; "x: 2x3x4xf32"; "(QuantizeLinear (Transpose[perm=[1,0,2]] %x) 0.5 3:ui8)" => "(Transpose[perm=[1,0,2]] (QuantizeLinear %x 0.5 3:ui8))");
equiv!(transpose_sink_dequantize_per_axis_stays: "transpose-sink-quantize"; "x: 2x3x4xui8"; "(DequantizeLinear[axis=0] (Transpose[perm=[1,0,2]] %x) fill(0.5, 3xf32))" => not "(Transpose[perm=[1,0,2]] (DequantizeLinear[axis=0] %x fill(0.5, 3xf32)))");
equiv!(transpose_sink_binary: "transpose-sink-binary"; "x: 2x3xf32, y: 1x3xf32"; "(Add (Transpose[perm=[1,0]] %x) (Transpose[perm=[1,0]] %y))" => "(Transpose[perm=[1,0]] (Add %x %y))");
equiv!(transpose_sink_binary_other_perms_stay: "transpose-sink-binary"; "x: 3x3xf32, y: 3x3xf32"; "(Add (Transpose[perm=[1,0]] %x) (Transpose[perm=[0,1]] %y))" => not "(Transpose[perm=[1,0]] (Add %x %y))");
equiv!(transpose_sink_const: "transpose-sink-const"; "x: 2x3xf32"; "(Mul (Transpose[perm=[1,0]] %x) [1,2]:f32)" => not "(Transpose[perm=[1,0]] (Mul %x [1,2]:f32))");
equiv!(transpose_sink_const_full_rank: "transpose-sink-const"; "x: 2x3xf32"; "(Mul (Transpose[perm=[1,0]] %x) (Reshape [1,2,3,4,5,6] [3,2]:i64))" => "(Transpose[perm=[1,0]] (Mul %x (Reshape [1,3,5,2,4,6] [2,3]:i64)))");
equiv!(transpose_sink_global_pool: "transpose-sink-global-pool"; "x: 1x5x5x8xf32"; "(GlobalAveragePool (Transpose[perm=[0,3,1,2]] %x))" => "(Transpose[perm=[0,3,1,2]] (ReduceMean[keepdims=1, axes=[1,2]] %x))");
equiv!(transpose_sink_global_pool_axes @ 18: "transpose-sink-global-pool"; "x: 1x5x5x8xf32"; "(GlobalMaxPool (Transpose[perm=[0,3,1,2]] %x))" => "(Transpose[perm=[0,3,1,2]] (ReduceMax[keepdims=1] %x [1, 2]:i64))");
equiv!(transpose_sink_reduce: "transpose-sink-reduce"; "x: 2x3x4xf32"; "(ReduceMax[axes=[0]] (Transpose[perm=[2,0,1]] %x))" => "(Transpose[perm=[2,0,1]] (ReduceMax[axes=[2]] %x))");
equiv!(transpose_sink_reduce_axes: "transpose-sink-reduce-axes"; "x: 2x3x4xf32"; "(ReduceSum (Transpose[perm=[2,0,1]] %x) [0]:i64)" => "(Transpose[perm=[2,0,1]] (ReduceSum %x [2]:i64))");
equiv!(reshape_sink_unary: "reshape-sink-unary"; "x: 2x3xf32"; "(Tanh (Reshape %x [3,2]:i64))" => "(Reshape (Tanh %x) [3,2]:i64)");
equiv!(pad_hidden_matmul: "pad-hidden-matmul"; "x: 2x1xf32"; "(MatMul (MatMul %x rand(1, 1x2048xf32)) rand(2, 2048x2xf32))" => "(MatMul (MatMul %x (Concat[axis=1] rand(1, 1x2048xf32) fill(0, 1x16xf32))) (Concat[axis=0] rand(2, 2048x2xf32) fill(0, 16x2xf32)))");
equiv!(pad_hidden_matmul_unaliased_stays: "pad-hidden-matmul"; "x: 2x8xf32"; "(MatMul (MatMul %x rand(1, 8x768xf32)) rand(2, 768x2xf32))" => not "(MatMul (MatMul %x (Concat[axis=1] rand(1, 8x768xf32) fill(0, 8x16xf32))) (Concat[axis=0] rand(2, 768x2xf32) fill(0, 16x2xf32)))");
equiv!(pad_hidden_gemm: "pad-hidden-gemm"; "x: 2x1xf32"; "(Gemm (omlc.FusedGemm[activation=\"GeluTanh\"] %x rand(1, 1x2048xf32) rand(3, 2048xf32)) rand(2, 2048x2xf32) rand(4, 2xf32))" => "(Gemm (omlc.FusedGemm[activation=\"GeluTanh\"] %x (Concat[axis=1] rand(1, 1x2048xf32) fill(0, 1x16xf32)) (Concat[axis=0] rand(3, 2048xf32) fill(0, 16xf32))) (Concat[axis=0] rand(2, 2048x2xf32) fill(0, 16x2xf32)) rand(4, 2xf32))");
equiv!(pad_hidden_transposed_gemm_stays: "pad-hidden-gemm"; "x: 2x1xf32"; "(Gemm (Gemm[transB=1] %x rand(1, 2048x1xf32)) rand(2, 2048x2xf32))" => not "(Gemm (Gemm[transB=1] %x (Concat[axis=0] rand(1, 2048x1xf32) fill(0, 16x1xf32))) (Concat[axis=0] rand(2, 2048x2xf32) fill(0, 16x2xf32)))");
equiv!(pad_hidden_fusedmatmul: "pad-hidden-fusedmatmul"; "x: 1x2x1xf32, z: 1x2x2xf32"; "(omlc.FusedMatMul (omlc.FusedMatMul[activation=\"Gelu\"] %x rand(1, 1x2048xf32)) rand(2, 2048x2xf32) %z)" => "(omlc.FusedMatMul (omlc.FusedMatMul[activation=\"Gelu\"] %x (Concat[axis=1] rand(1, 1x2048xf32) fill(0, 1x16xf32))) (Concat[axis=0] rand(2, 2048x2xf32) fill(0, 16x2xf32)) %z)");

// multi
equiv!(matmul_merge: "matmul-merge"; "x: 2x3xf32"; "(Add (MatMul %x rand(1, 3x4xf32)) (Relu (MatMul %x rand(2, 3x4xf32))))" => "(Add (get.0 (Split#2[axis=-1] (MatMul %x (Concat[axis=1] rand(1, 3x4xf32) rand(2, 3x4xf32))) [4,4]:i64)) (Relu (get.1 (Split#2[axis=-1] (MatMul %x (Concat[axis=1] rand(1, 3x4xf32) rand(2, 3x4xf32))) [4,4]:i64))))");
equiv!(conv_merge: "conv-merge"; "x: 1x3x8x8xf32"; "(Add (Conv %x rand(1, 4x3x3x3xf32) rand(3, 4xf32)) (Conv %x rand(2, 4x3x3x3xf32)))" => "(Add (get.0 (Split#2[axis=1] (Conv %x (Concat[axis=0] rand(1, 4x3x3x3xf32) rand(2, 4x3x3x3xf32)) (Concat[axis=0] rand(3, 4xf32) fill(0, 4xf32))) [4,4]:i64)) (get.1 (Split#2[axis=1] (Conv %x (Concat[axis=0] rand(1, 4x3x3x3xf32) rand(2, 4x3x3x3xf32)) (Concat[axis=0] rand(3, 4xf32) fill(0, 4xf32))) [4,4]:i64)))");
equiv!(convs_with_other_windows_stay: "conv-merge"; "x: 1x3x8x8xf32"; "(Add (Conv %x rand(1, 4x3x3x3xf32)) (Conv[auto_pad=\"VALID\"] %x rand(2, 4x3x3x3xf32)))" => not "(Add (get.0 (Split#2[axis=1] (Conv %x (Concat[axis=0] rand(1, 4x3x3x3xf32) rand(2, 4x3x3x3xf32))) [4,4]:i64)) (get.1 (Split#2[axis=1] (Conv %x (Concat[axis=0] rand(1, 4x3x3x3xf32) rand(2, 4x3x3x3xf32))) [4,4]:i64)))");

// pointwise
equiv!(conv_matmul: "conv-matmul"; "x: 2x8x5x5xf32"; "(Conv %x rand(1, 4x8x1x1xf32) rand(2, 4xf32))" => "(Reshape (Add (MatMul (Reshape rand(1, 4x8x1x1xf32) [4,8]:i64) (Reshape %x [2,8,25]:i64)) (Reshape rand(2, 4xf32) [4,1]:i64)) [2,4,5,5]:i64)");
equiv!(conv_matmul_strided: "conv-matmul"; "x: 1x8x5x5xf32"; "(Conv[strides=[2,2]] %x rand(1, 4x8x1x1xf32))" => "(Reshape (MatMul (Reshape rand(1, 4x8x1x1xf32) [4,8]:i64) (Reshape (Slice %x [0,0]:i64 [5,5]:i64 [2,3]:i64 [2,2]:i64) [1,8,9]:i64)) [1,4,3,3]:i64)");
equiv!(conv_matmul_symbolic_batch: "conv-matmul"; "x: Nx8x6xf32"; "(Conv %x rand(1, 4x8x1xf32))" => "(Reshape (MatMul (Reshape rand(1, 4x8x1xf32) [4,8]:i64) (Reshape %x [0,8,6]:i64)) [0,4,6]:i64)");
equiv!(conv_3x3_stays: "conv-matmul"; "x: 1x8x5x5xf32"; "(Conv %x rand(1, 4x8x3x3xf32))" => not "(Reshape (MatMul (Reshape rand(1, 4x8x3x3xf32) [4,72]:i64) (Reshape %x [1,8,25]:i64)) [1,4,3,3]:i64)");
equiv!(padded_conv_stays: "conv-matmul"; "x: 1x8x5x5xf32"; "(Conv[pads=[1,1,1,1]] %x rand(1, 4x8x1x1xf32))" => not "(Reshape (MatMul (Reshape rand(1, 4x8x1x1xf32) [4,8]:i64) (Reshape %x [1,8,25]:i64)) [1,4,7,7]:i64)");
equiv!(grouped_conv_stays: "conv-matmul"; "x: 1x8x5x5xf32"; "(Conv[group=2] %x rand(1, 8x4x1x1xf32))" => not "(Reshape (MatMul (Reshape rand(1, 8x4x1x1xf32) [8,4]:i64) (Reshape %x [1,4,25]:i64)) [1,8,5,5]:i64)");
equiv!(fusedconv_matmul: "fusedconv-matmul"; "x: 1x8x5x5xf32, z: 1x4x5x5xf32"; "(omlc.FusedConv[activation=\"Relu\"] %x rand(1, 4x8x1x1xf32) rand(2, 4xf32) %z)" => "(Reshape (omlc.FusedMatMul[activation=\"Relu\"] (Reshape rand(1, 4x8x1x1xf32) [4,8]:i64) (Reshape %x [1,8,25]:i64) (Reshape rand(2, 4xf32) [4,1]:i64) (Reshape %z [1,4,25]:i64)) [1,4,5,5]:i64)");
equiv!(fusedconv_matmul_without_bias: "fusedconv-matmul"; "x: 1x8x5x5xf32"; "(omlc.FusedConv[activation=\"Clip\", activation_params=[0.0, 6.0]] %x rand(1, 4x8x1x1xf32))" => "(Reshape (omlc.FusedMatMul[activation=\"Clip\", activation_params=[0.0, 6.0]] (Reshape rand(1, 4x8x1x1xf32) [4,8]:i64) (Reshape %x [1,8,25]:i64)) [1,4,5,5]:i64)");

/// `Shape → Gather → Unsqueeze → Concat → Reshape` chains need no rule:
/// the analysis knows their values (the dialect's value propagation) and
/// folds them into a constant shape when the input shape is static.
#[test]
fn static_shape_chains_fold_without_rules() {
    check(
        17,
        &[],
        "x: 2x3x4xf32",
        "(Reshape %x (Concat[axis=0] (Unsqueeze (Gather (Shape %x) 0:i64) [0]:i64) [-1]:i64))",
        "(Reshape %x [2,-1]:i64)",
        true,
    );
}

// quant: the packed constants of a splat W are splats (pack keeps every
// byte; K = 16, N = 32 need no padding) and its column sums 16·w. The
// products' values are checked in compiler/driver/tests/quantized.rs.
equiv!(pack_matmulinteger: "pack-matmulinteger"; "a: 8x16xui8, az: ui8"; "(MatMulInteger %a fill(3, 16x32xi8) %az)" => "(omlc.PackedMatMulInteger %a fill(3, 2x4x16x4xi8) fill(48, 32xi32) %az)");
equiv!(pack_matmulinteger_uint8_weights_shift: "pack-matmulinteger"; "a: 8x16xi8, az: i8"; "(MatMulInteger %a fill(200, 16x32xui8) %az 128:ui8)" => "(omlc.PackedMatMulInteger %a fill(72, 2x4x16x4xi8) fill(1152, 32xi32) %az)");
equiv!(pack_matmulinteger_input_weights_stay: "pack-matmulinteger"; "a: 8x16xui8, w: 16x32xi8"; "(MatMulInteger %a %w)" => not "(omlc.PackedMatMulInteger %a fill(0, 2x4x16x4xi8) fill(0, 32xi32))");
equiv!(pack_dq_matmul: "pack-dq-matmul"; "x: 8x16xui8, s: f32, z: ui8"; "(MatMul (DequantizeLinear %x %s %z) (DequantizeLinear fill(3, 16x32xi8) fill(0.5, 32xf32)))" => "(omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z none (Mul %s fill(0.5, 32xf32)))");
equiv!(pack_dq_matmul_per_row_stays: "pack-dq-matmul"; "x: 8x16xui8, s: f32, z: ui8"; "(MatMul (DequantizeLinear %x %s %z) (DequantizeLinear[axis=0] fill(3, 16x32xi8) fill(0.5, 16xf32)))" => not "(omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z none (Mul %s fill(0.5, 16xf32)))");
equiv!(pack_dq_gemm: "pack-dq-gemm"; "x: 8x16xui8, s: f32, z: ui8"; "(Gemm (DequantizeLinear %x %s %z) (DequantizeLinear fill(3, 16x32xi8) fill(0.5, 32xf32)) fill(1.5, 32xf32))" => "(omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z none (Mul %s fill(0.5, 32xf32)) fill(1.5, 32xf32))");
equiv!(pack_dq_gemm_transposed: "pack-dq-gemm"; "x: 8x16xui8, s: f32, z: ui8"; "(Gemm[transB=1] (DequantizeLinear %x %s %z) (DequantizeLinear[axis=0] fill(3, 32x16xi8) fill(0.5, 32xf32)) fill(1.5, 32xf32))" => "(omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z none (Mul %s fill(0.5, 32xf32)) fill(1.5, 32xf32))");
equiv!(pack_dq_gemm_matrix_bias_after: "pack-dq-gemm"; "x: 8x16xui8, s: f32, z: ui8, c: 8x32xf32"; "(Gemm (DequantizeLinear %x %s %z) (DequantizeLinear fill(3, 16x32xi8) fill(0.5, 32xf32)) %c)" => "(Add (omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z none (Mul %s fill(0.5, 32xf32))) %c)");
// A 3×3 window over 8 channels: K = 72 rows in 18 groups, column sums 72·2.
equiv!(pack_dq_conv: "pack-dq-conv"; "x: 1x8x6x6xui8, s: f32, z: ui8"; "(Conv (DequantizeLinear %x %s %z) (DequantizeLinear[axis=0] fill(2, 16x8x3x3xi8) fill(0.5, 16xf32)) fill(1.5, 16xf32))" => "(Transpose[perm=[0,3,1,2]] (omlc.PackedConvInteger[kernel_shape=[3,3]] (Transpose[perm=[0,2,3,1]] %x) fill(2, 1x18x16x4xi8) fill(144, 16xi32) %z none (Mul %s fill(0.5, 16xf32)) fill(1.5, 16xf32)))");
equiv!(pack_dq_conv_grouped_stays: "pack-dq-conv"; "x: 1x8x6x6xui8, s: f32, z: ui8"; "(Conv[group=2] (DequantizeLinear %x %s %z) (DequantizeLinear[axis=0] fill(2, 16x4x3x3xi8) fill(0.5, 16xf32)))" => not "(Transpose[perm=[0,3,1,2]] (omlc.PackedConvInteger[kernel_shape=[3,3]] (Transpose[perm=[0,2,3,1]] %x) fill(2, 1x9x16x4xi8) fill(72, 16xi32) %z none (Mul %s fill(0.5, 16xf32))))");
equiv!(pack_convinteger: "pack-convinteger"; "x: 1x8x6x6xui8, z: ui8"; "(ConvInteger %x fill(2, 16x8x3x3xi8) %z)" => "(Transpose[perm=[0,3,1,2]] (omlc.PackedConvInteger[kernel_shape=[3,3]] (Transpose[perm=[0,2,3,1]] %x) fill(2, 1x18x16x4xi8) fill(144, 16xi32) %z))");
equiv!(pack_convinteger_grouped_stays: "pack-convinteger"; "x: 1x8x6x6xui8, z: ui8"; "(ConvInteger[group=2] %x fill(2, 16x4x3x3xi8) %z)" => not "(Transpose[perm=[0,3,1,2]] (omlc.PackedConvInteger[kernel_shape=[3,3]] (Transpose[perm=[0,2,3,1]] %x) fill(2, 1x9x16x4xi8) fill(72, 16xi32) %z))");
// The input's scale 0.5 folds into the weights (2·0.5 = 1, laid out
// [KH, KW, C]), its zero point 3 into the bias: 1.5 − 3·Σ₉ 1 = −25.5.
equiv!(dq_depthwise: "dq-depthwise"; "x: 1x8x6x6xui8"; "(Conv[group=8] (DequantizeLinear %x 0.5 3:ui8) fill(2, 8x1x3x3xf32) fill(1.5, 8xf32))" => "(Transpose[perm=[0,3,1,2]] (omlc.DepthwiseConv[kernel_shape=[3,3]] (Transpose[perm=[0,2,3,1]] %x) fill(1, 3x3x8xf32) fill(-25.5, 8xf32) none none))");
equiv!(dq_depthwise_padded: "dq-depthwise"; "x: 1x8x6x6xui8"; "(Conv[group=8, pads=[1,1,1,1], strides=[2,2]] (DequantizeLinear %x 0.5 3:ui8) fill(2, 8x1x3x3xf32))" => "(Transpose[perm=[0,3,1,2]] (omlc.DepthwiseConv[kernel_shape=[3,3], strides=[2,2]] (Pad (Transpose[perm=[0,2,3,1]] %x) [0, 1, 1, 0, 0, 1, 1, 0]:i64 3:ui8) fill(1, 3x3x8xf32) fill(-27, 8xf32) none none))");
equiv!(dq_depthwise_grouped_stays: "dq-depthwise"; "x: 1x8x6x6xui8"; "(Conv[group=4] (DequantizeLinear %x 0.5 3:ui8) fill(2, 8x2x3x3xf32))" => not "(Transpose[perm=[0,3,1,2]] (omlc.DepthwiseConv[kernel_shape=[3,3]] (Transpose[perm=[0,2,3,1]] %x) fill(1, 3x3x8xf32) fill(-27, 8xf32) none none))");
equiv!(depthwise_quantize: "depthwise-quantize"; "x: 1x6x6x8xui8"; "(QuantizeLinear (omlc.DepthwiseConv[kernel_shape=[3,3]] %x fill(1, 3x3x8xf32) fill(-25.5, 8xf32)) 0.25 3:ui8)" => "(omlc.DepthwiseConv[kernel_shape=[3,3]] %x fill(1, 3x3x8xf32) fill(-25.5, 8xf32) 0.25 3:ui8)");
equiv!(packed_scale: "packed-scale"; "x: 8x16xui8, z: ui8, s: f32"; "(Mul (Cast[to=1] (omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z)) %s)" => "(omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z none %s)");
equiv!(packed_scale_left: "packed-scale-left"; "x: 8x16xui8, z: ui8"; "(Mul fill(0.5, 32xf32) (Cast[to=1] (omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z)))" => "(omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z none fill(0.5, 32xf32))");
equiv!(packed_scale_matrix_stays: "packed-scale"; "x: 8x16xui8, z: ui8, s: 8x32xf32"; "(Mul (Cast[to=1] (omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z)) %s)" => not "(omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z none %s)");
equiv!(packed_bias: "packed-bias"; "x: 8x16xui8, z: ui8, s: f32"; "(Add (omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z none %s) fill(1.5, 32xf32))" => "(omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z none %s fill(1.5, 32xf32))");
equiv!(packed_bias_residual_stays: "packed-bias"; "x: 8x16xui8, z: ui8, s: f32, r: 8x32xf32"; "(Add (omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z none %s) %r)" => not "(omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z none %s %r)");
equiv!(packed_quantize: "packed-quantize"; "x: 8x16xui8, s: f32, z: ui8"; "(QuantizeLinear (omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z none %s) 0.25 3:ui8)" => "(omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z none %s none 0.25 3:ui8)");
equiv!(packed_quantize_sums_stay: "packed-quantize"; "x: 8x16xui8, z: ui8"; "(QuantizeLinear (omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z) 0.25 3:ui8)" => not "(omlc.PackedMatMulInteger %x fill(3, 2x4x16x4xi8) fill(48, 32xi32) %z none none none 0.25 3:ui8)");

/// Every rule has a test above (its name appears in this file).
#[test]
fn every_rule_is_tested() {
    let source = include_str!("rules.rs");
    let missing: Vec<&str> = rules_of(&RuleSet::ALL)
        .iter()
        .map(|r| r.name)
        .filter(|n| !source.contains(&format!("\"{n}\"")))
        .collect();
    assert!(
        missing.is_empty(),
        "rules without an equivalence test: {missing:?}"
    );
}

/// Every rule is in the list of `docs/rewrite-rules.md`.
#[test]
fn docs_list_every_rule() {
    let docs = include_str!("../../../docs/rewrite-rules.md");
    let missing: Vec<&str> = rules_of(&RuleSet::ALL)
        .iter()
        .map(|r| r.name)
        .filter(|n| !docs.contains(&format!("| `{n}` |")))
        .collect();
    assert!(
        missing.is_empty(),
        "rules missing from docs/rewrite-rules.md: {missing:?}"
    );
}

/// Rule names are unique.
#[test]
fn rule_names_are_unique() {
    let mut names: Vec<&str> = rules_of(&RuleSet::ALL).iter().map(|r| r.name).collect();
    let n = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), n);
}
