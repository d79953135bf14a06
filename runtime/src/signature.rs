//! A compiled model's inputs and outputs, and the checks every run makes
//! before compiled code sees a tensor.
//!
//! Compiled code trusts its inputs: it indexes buffers with the sizes it
//! was compiled for, and with one size per `dim_param` name. So the
//! runtime checks count, element type, rank, static dims and that each
//! `dim_param` names one size across all inputs; what the inputs bind also
//! tells which symbolic outputs have a shape known before the run.

use std::fmt;

use onnx_mlc_dialect::ElemType;

use crate::error::{Result, RuntimeError};
use crate::tensor::Tensor;

/// One dim of a model input or output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecDim {
    /// A size fixed at compile time.
    Static(i64),
    /// A named symbolic size (`dim_param`); for outputs the name may also
    /// be a descriptive expression that no input binds.
    Param(String),
    /// Any size.
    Unknown,
}

/// A graph input or output: name, element type and dims.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IoSpec {
    /// The ONNX name.
    pub name: String,
    /// The element type.
    pub elem: ElemType,
    /// The dims (the rank is always known).
    pub dims: Vec<SpecDim>,
}

impl fmt::Display for IoSpec {
    /// `"x": tensor<"N"x4xf32>`, like the onnx dialect's text form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\": tensor<", self.name)?;
        for dim in &self.dims {
            match dim {
                SpecDim::Static(n) => write!(f, "{n}x")?,
                SpecDim::Param(p) => write!(f, "\"{p}\"x")?,
                SpecDim::Unknown => f.write_str("?x")?,
            }
        }
        write!(f, "{}>", self.elem)
    }
}

/// What the runtime knows about a compiled model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelSignature {
    /// Graph inputs, in order.
    pub inputs: Vec<IoSpec>,
    /// Graph outputs, in order.
    pub outputs: Vec<IoSpec>,
    /// Bytes of the arena each run needs.
    pub workspace_size: u64,
    /// Number of weights the model reads.
    pub num_weights: usize,
    /// The side file holding the weights (AOT libraries), if any.
    pub weights_file: Option<String>,
}

/// Sizes the inputs of one run bound to `dim_param` names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bindings {
    /// `(name, size, input, axis)`: where each name was first bound.
    entries: Vec<(String, i64, usize, usize)>,
}

impl Bindings {
    /// The size bound to `param`.
    pub fn get(&self, param: &str) -> Option<i64> {
        self.find(param).map(|e| e.1)
    }

    /// `(name, size)` pairs, in the order the inputs bound them.
    pub fn iter(&self) -> impl Iterator<Item = (&str, i64)> {
        self.entries
            .iter()
            .map(|(name, size, ..)| (name.as_str(), *size))
    }

    /// The concrete shape of `spec` when every dim is static or bound.
    pub fn resolve(&self, spec: &IoSpec) -> Option<Vec<i64>> {
        spec.dims.iter().map(|d| self.size_of(d)).collect()
    }

    /// The size of one dim when static or bound.
    pub(crate) fn size_of(&self, dim: &SpecDim) -> Option<i64> {
        match dim {
            SpecDim::Static(n) => Some(*n),
            SpecDim::Param(p) => self.get(p),
            SpecDim::Unknown => None,
        }
    }

    fn find(&self, param: &str) -> Option<&(String, i64, usize, usize)> {
        self.entries.iter().find(|e| e.0 == param)
    }
}

impl ModelSignature {
    /// Checks a run's inputs (in graph order) and returns the sizes they
    /// bind to `dim_param` names.
    pub fn check_inputs(&self, inputs: &[&Tensor]) -> Result<Bindings> {
        if inputs.len() != self.inputs.len() {
            return Err(RuntimeError::InputCount {
                expected: self.inputs.len(),
                got: inputs.len(),
            });
        }
        let mut bindings = Bindings::default();
        for (k, (spec, tensor)) in self.inputs.iter().zip(inputs).enumerate() {
            self.check_input(k, spec, tensor, &mut bindings)?;
        }
        Ok(bindings)
    }

    fn check_input(
        &self,
        k: usize,
        spec: &IoSpec,
        tensor: &Tensor,
        bindings: &mut Bindings,
    ) -> Result<()> {
        let input = || spec.name.clone();
        if tensor.elem() != spec.elem {
            return Err(RuntimeError::InputElem {
                input: input(),
                expected: spec.elem,
                got: tensor.elem(),
            });
        }
        if tensor.rank() != spec.dims.len() {
            return Err(RuntimeError::InputRank {
                input: input(),
                expected: spec.dims.len(),
                got: tensor.rank(),
            });
        }
        for (axis, (dim, &got)) in spec.dims.iter().zip(tensor.shape()).enumerate() {
            match dim {
                SpecDim::Static(expected) if *expected != got => {
                    return Err(RuntimeError::InputDim {
                        input: input(),
                        axis,
                        expected: *expected,
                        got,
                    });
                }
                SpecDim::Param(param) => match bindings.find(param) {
                    Some(&(_, bound, by, bound_axis)) if bound != got => {
                        return Err(RuntimeError::DimParam {
                            input: input(),
                            axis,
                            param: param.clone(),
                            got,
                            bound_by: self.inputs[by].name.clone(),
                            bound_axis,
                            bound,
                        });
                    }
                    Some(_) => {}
                    None => bindings.entries.push((param.clone(), got, k, axis)),
                },
                SpecDim::Static(_) | SpecDim::Unknown => {}
            }
        }
        Ok(())
    }

    /// The names of the outputs, in graph order.
    pub fn output_names(&self) -> Vec<&str> {
        self.outputs.iter().map(|o| o.name.as_str()).collect()
    }

    /// Puts inputs given by name into graph order.
    pub fn order_named<'t>(&self, named: &[(&str, &'t Tensor)]) -> Result<Vec<&'t Tensor>> {
        let mut ordered: Vec<Option<&Tensor>> = vec![None; self.inputs.len()];
        for &(name, tensor) in named {
            let k = self
                .inputs
                .iter()
                .position(|spec| spec.name == name)
                .ok_or_else(|| RuntimeError::UnknownInput {
                    name: name.to_owned(),
                    known: self
                        .inputs
                        .iter()
                        .map(|s| format!("\"{}\"", s.name))
                        .collect::<Vec<_>>()
                        .join(", "),
                })?;
            if ordered[k].replace(tensor).is_some() {
                return Err(RuntimeError::DuplicateInput(name.to_owned()));
            }
        }
        ordered
            .into_iter()
            .zip(&self.inputs)
            .map(|(t, spec)| t.ok_or_else(|| RuntimeError::MissingInput(spec.name.clone())))
            .collect()
    }

    /// The concrete shape of each output that the bindings determine.
    pub fn output_shapes(&self, bindings: &Bindings) -> Vec<Option<Vec<i64>>> {
        self.outputs
            .iter()
            .map(|spec| bindings.resolve(spec))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn io(name: &str, elem: ElemType, dims: &[&str]) -> IoSpec {
        let dims = dims
            .iter()
            .map(|d| match d.parse() {
                Ok(n) => SpecDim::Static(n),
                Err(_) if *d == "?" => SpecDim::Unknown,
                Err(_) => SpecDim::Param(d.to_string()),
            })
            .collect();
        IoSpec {
            name: name.into(),
            elem,
            dims,
        }
    }

    /// x: f32["N", 4], y: f32["N", "?"], m: i64["M", "N"]
    /// -> z: f32["N", 4], w: i64["K"], v: f32["M"x?]
    fn signature() -> ModelSignature {
        ModelSignature {
            inputs: vec![
                io("x", ElemType::F32, &["N", "4"]),
                io("y", ElemType::F32, &["N", "?"]),
                io("m", ElemType::I64, &["M", "N"]),
            ],
            outputs: vec![
                io("z", ElemType::F32, &["N", "4"]),
                io("w", ElemType::I64, &["K"]),
                io("v", ElemType::F32, &["M", "?"]),
            ],
            workspace_size: 0,
            num_weights: 0,
            weights_file: None,
        }
    }

    fn f32s(shape: &[i64]) -> Tensor {
        Tensor::zeros(ElemType::F32, shape).unwrap()
    }

    fn i64s(shape: &[i64]) -> Tensor {
        Tensor::zeros(ElemType::I64, shape).unwrap()
    }

    fn check(inputs: &[Tensor]) -> Result<Bindings> {
        signature().check_inputs(&inputs.iter().collect::<Vec<_>>())
    }

    fn message(inputs: &[Tensor]) -> String {
        check(inputs).unwrap_err().to_string()
    }

    #[test]
    fn consistent_inputs_bind_their_dim_params() {
        let b = check(&[f32s(&[3, 4]), f32s(&[3, 7]), i64s(&[2, 3])]).unwrap();
        assert_eq!(b.iter().collect::<Vec<_>>(), [("N", 3), ("M", 2)]);
        assert_eq!(
            signature().output_shapes(&b),
            [Some(vec![3, 4]), None, None] // K is not an input param; v has an unknown dim
        );
        // Empty tensors bind 0.
        let b = check(&[f32s(&[0, 4]), f32s(&[0, 0]), i64s(&[5, 0])]).unwrap();
        assert_eq!(b.get("N"), Some(0));
    }

    #[test]
    fn every_mismatch_is_named() {
        let good = || vec![f32s(&[3, 4]), f32s(&[3, 7]), i64s(&[2, 3])];
        assert_eq!(message(&good()[..2]), "expected 3 inputs, got 2");

        let mut bad = good();
        bad[2] = f32s(&[2, 3]);
        assert_eq!(
            message(&bad),
            "input \"m\": expected element type i64, got f32"
        );

        let mut bad = good();
        bad[0] = f32s(&[3, 4, 1]);
        assert_eq!(message(&bad), "input \"x\": expected rank 2, got 3");

        let mut bad = good();
        bad[0] = f32s(&[3, 5]);
        assert_eq!(message(&bad), "input \"x\": dim 1 must be 4, got 5");

        let mut bad = good();
        bad[2] = i64s(&[2, 4]);
        assert_eq!(
            message(&bad),
            "input \"m\": dim 1 (\"N\") is 4, but input \"x\" dim 0 bound \"N\" to 3"
        );
    }

    #[test]
    fn a_dim_param_repeated_within_one_input_must_agree() {
        let sig = ModelSignature {
            inputs: vec![io("sq", ElemType::F32, &["N", "N"])],
            ..signature()
        };
        let t = f32s(&[2, 3]);
        assert_eq!(
            sig.check_inputs(&[&t]).unwrap_err().to_string(),
            "input \"sq\": dim 1 (\"N\") is 3, but input \"sq\" dim 0 bound \"N\" to 2"
        );
    }

    #[test]
    fn named_inputs_are_ordered_and_checked() {
        let (x, y, m) = (f32s(&[1, 4]), f32s(&[1, 1]), i64s(&[1, 1]));
        let sig = signature();
        let ordered = sig.order_named(&[("m", &m), ("x", &x), ("y", &y)]).unwrap();
        assert!(std::ptr::eq(ordered[0], &x) && std::ptr::eq(ordered[2], &m));
        assert_eq!(
            sig.order_named(&[("x", &x), ("q", &y)])
                .unwrap_err()
                .to_string(),
            "no input named \"q\" (inputs: \"x\", \"y\", \"m\")"
        );
        assert_eq!(
            sig.order_named(&[("x", &x), ("x", &y)])
                .unwrap_err()
                .to_string(),
            "input \"x\" given twice"
        );
        assert_eq!(
            sig.order_named(&[("x", &x), ("m", &m)])
                .unwrap_err()
                .to_string(),
            "input \"y\" missing"
        );
    }

    #[test]
    fn specs_print_like_dialect_types() {
        let sig = signature();
        assert_eq!(sig.inputs[1].to_string(), "\"y\": tensor<\"N\"x?xf32>");
        let scalar = io("s", ElemType::Bool, &[]);
        assert_eq!(scalar.to_string(), "\"s\": tensor<i1>");
    }
}
