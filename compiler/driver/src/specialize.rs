//! Size variants chosen ahead of time (`onnx-mlc --specialize batch=1,8`).
//!
//! The JIT compiles a model's size variants on demand (`crate::variants`);
//! a library compiled ahead of time cannot compile at run time, so its
//! user names the sizes instead. Each [`SizeBinding`] fixes some of the
//! model's open input dims, by name; the library carries, beside the
//! general code, the model compiled with those dims bound (computed shapes
//! folded, every kernel on its static schedule), and its runtime runs a
//! call on the first variant whose sizes match the call's inputs, on the
//! general code otherwise. The variants share one weights blob with the
//! general code: a weight they have in common is stored once.

use std::fmt;

use onnx_mlc_dialect::name_dims::{bind_input_dims, open_dim_name, open_input_dims};
use onnx_mlc_dialect::Model;

use crate::error::{Error, Result};

/// Sizes for some of a model's open input dims, each named by its
/// `dim_param` (or `<input>.<axis>` for a dim the model left unnamed): one
/// size variant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SizeBinding {
    dims: Vec<(String, i64)>,
}

impl SizeBinding {
    /// A binding of these dims to these sizes.
    pub fn new(dims: Vec<(String, i64)>) -> SizeBinding {
        SizeBinding { dims }
    }

    /// The bindings one `--specialize` value asks for: comma-separated
    /// `name=size` items, where a bare size adds another size for the name
    /// before it; the bindings are every combination of the names' sizes
    /// (`batch=1,8` → `batch=1`, `batch=8`; `batch=1,4,sequence=128` →
    /// `batch=1,sequence=128`, `batch=4,sequence=128`).
    pub fn parse(spec: &str) -> Result<Vec<SizeBinding>> {
        let bad = |message: String| Error::Specialize {
            binding: spec.to_string(),
            message,
        };
        let mut dims: Vec<(String, Vec<i64>)> = vec![];
        for item in spec.split(',').map(str::trim) {
            let (name, size) = match item.split_once('=') {
                Some((name, size)) => (Some(name.trim()), size.trim()),
                None => (None, item),
            };
            let size: i64 = size
                .parse()
                .ok()
                .filter(|&s| s > 0)
                .ok_or_else(|| bad(format!("`{item}`: a size is a positive integer")))?;
            match name {
                Some("") => return Err(bad(format!("`{item}`: the dim has no name"))),
                Some(name) if dims.iter().any(|(n, _)| n == name) => {
                    return Err(bad(format!("`{name}` is given twice")))
                }
                Some(name) => dims.push((name.to_string(), vec![size])),
                None => match dims.last_mut() {
                    Some((_, sizes)) => sizes.push(size),
                    None => return Err(bad(format!("`{item}`: expected `name=size`"))),
                },
            }
        }
        let mut bindings = vec![SizeBinding { dims: vec![] }];
        for (name, sizes) in &dims {
            bindings = bindings
                .iter()
                .flat_map(|b| {
                    sizes.iter().map(move |&size| {
                        let mut dims = b.dims.clone();
                        dims.push((name.clone(), size));
                        SizeBinding { dims }
                    })
                })
                .collect();
        }
        Ok(bindings)
    }

    /// `model` with the dims this binding names bound to its sizes (see
    /// `bind_input_dims`); an error when a name is no open input dim of it.
    pub(crate) fn bind(&self, model: &Model) -> Result<Model> {
        let open = open_input_dims(model).unwrap_or_default();
        let names: Vec<String> = open.iter().map(|&d| open_dim_name(model, d)).collect();
        let mut dims = vec![];
        let mut sizes = vec![];
        for (name, size) in &self.dims {
            let matching: Vec<_> = open
                .iter()
                .zip(&names)
                .filter(|(_, n)| *n == name)
                .map(|(&d, _)| d)
                .collect();
            if matching.is_empty() {
                let known = match names.is_empty() {
                    true => "the model has none".to_string(),
                    false => format!("the model's are {}", dedup(&names).join(", ")),
                };
                return Err(Error::Specialize {
                    binding: self.to_string(),
                    message: format!("`{name}` is not a symbolic input dim ({known})"),
                });
            }
            sizes.extend(std::iter::repeat_n(*size, matching.len()));
            dims.extend(matching);
        }
        let mut bound = model.clone();
        bind_input_dims(&mut bound, &dims, &sizes);
        Ok(bound)
    }
}

/// The names in order, each once.
fn dedup(names: &[String]) -> Vec<&str> {
    let mut out: Vec<&str> = vec![];
    for n in names {
        if !out.contains(&n.as_str()) {
            out.push(n);
        }
    }
    out
}

impl fmt::Display for SizeBinding {
    /// `batch=1,sequence=128`: what [`SizeBinding::parse`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let items: Vec<String> = self.dims.iter().map(|(n, s)| format!("{n}={s}")).collect();
        f.write_str(&items.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(spec: &str) -> Vec<String> {
        SizeBinding::parse(spec)
            .unwrap()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn a_value_is_every_combination_of_its_sizes() {
        assert_eq!(parsed("batch=1"), ["batch=1"]);
        assert_eq!(parsed("batch=1,8"), ["batch=1", "batch=8"]);
        assert_eq!(
            parsed("batch=1,4, sequence=128"),
            ["batch=1,sequence=128", "batch=4,sequence=128"]
        );
        assert_eq!(
            parsed("batch=1,2,sequence=128,384"),
            [
                "batch=1,sequence=128",
                "batch=1,sequence=384",
                "batch=2,sequence=128",
                "batch=2,sequence=384"
            ]
        );
    }

    #[test]
    fn malformed_values_say_what_is_wrong() {
        let message = |spec: &str| SizeBinding::parse(spec).unwrap_err().to_string();
        assert!(
            message("8").contains("expected `name=size`"),
            "{}",
            message("8")
        );
        assert!(message("batch=0").contains("positive integer"));
        assert!(message("batch=x").contains("positive integer"));
        assert!(message("=4").contains("no name"));
        assert!(message("batch=1,batch=2").contains("given twice"));
    }
}
