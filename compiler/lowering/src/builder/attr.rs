//! Attributes, built with melior's constructors (and the C API's for
//! affine maps). The dialect enum attributes that have no constructor in
//! the C API (`#linalg.iterator_type<…>`, `#arith.fastmath<…>`) are parsed
//! from fixed text, one spelling per enum value.

use melior::ir::attribute::{ArrayAttribute, IntegerAttribute};
use melior::ir::r#type::IntegerType;
use melior::ir::{AffineMap, Attribute};
use melior::Context;

/// `unit`.
pub fn unit(cx: &Context) -> Attribute<'_> {
    Attribute::unit(cx)
}

/// `value : i64`.
pub fn i64_attr(cx: &Context, value: i64) -> Attribute<'_> {
    IntegerAttribute::new(IntegerType::new(cx, 64).into(), value).into()
}

/// `affine_map<…>` of `map`.
pub fn affine_map_attr(map: AffineMap<'_>) -> Attribute<'_> {
    // SAFETY: `map` is a valid affine map of a live context; the call only
    // wraps it in an attribute of that context.
    unsafe { Attribute::from_raw(mlir_sys::mlirAffineMapAttrGet(map.to_raw())) }
}

/// `[affine_map<…>, …]`: a structured op's `indexing_maps`.
pub fn affine_maps<'c>(cx: &'c Context, maps: &[AffineMap<'c>]) -> Attribute<'c> {
    let maps: Vec<Attribute> = maps.iter().map(|&m| affine_map_attr(m)).collect();
    ArrayAttribute::new(cx, &maps).into()
}

/// How a loop of a `linalg.generic` iterates.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IteratorType {
    Parallel,
    Reduction,
}

impl IteratorType {
    /// A loop that reduces when `reduction` is true.
    pub fn of(reduction: bool) -> IteratorType {
        if reduction {
            IteratorType::Reduction
        } else {
            IteratorType::Parallel
        }
    }

    /// `#linalg.iterator_type<…>`.
    pub fn attr(self, cx: &Context) -> Attribute<'_> {
        let text = match self {
            IteratorType::Parallel => "#linalg.iterator_type<parallel>",
            IteratorType::Reduction => "#linalg.iterator_type<reduction>",
        };
        Attribute::parse(cx, text).expect("the linalg dialect is loaded")
    }
}

/// `#arith.fastmath<contract>`.
pub fn fastmath_contract(cx: &Context) -> Attribute<'_> {
    Attribute::parse(cx, "#arith.fastmath<contract>").expect("the arith dialect is loaded")
}
