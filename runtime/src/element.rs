//! Rust types that a tensor's bytes can be viewed as.
//!
//! A view reinterprets the tensor's buffer in place, which is sound only
//! for types without padding whose every bit pattern is a value — or, for
//! `bool`, after checking that every byte is 0 or 1. The trait is sealed so
//! that nobody can add a type for which that does not hold.

use half::{bf16, f16};
use onnx_mlc_dialect::ElemType;

use crate::error::{Result, RuntimeError};

mod sealed {
    pub trait Sealed {}
}

/// An element type a [`Tensor`](crate::Tensor) can be viewed as: `f32`,
/// `f64`, `f16`, `bf16`, the integer types and `bool`.
pub trait TensorElement: sealed::Sealed + Copy + Send + Sync + 'static {
    /// The ONNX element type stored as `Self`.
    const ELEM: ElemType;

    /// Views native-endian bytes as values. The bytes come from a tensor
    /// buffer, so they are suitably aligned and a whole number of values.
    fn view(bytes: &[u8]) -> Result<&[Self]>;

    /// Views native-endian bytes as writable values.
    fn view_mut(bytes: &mut [u8]) -> Result<&mut [Self]>;

    /// The bytes of `values`.
    fn bytes_of(values: &[Self]) -> &[u8];
}

/// Checks the invariants every view relies on; a violation is a bug in the
/// tensor type, not bad input.
fn check_layout<T>(bytes: &[u8]) {
    assert_eq!(
        bytes.as_ptr().align_offset(std::mem::align_of::<T>()),
        0,
        "misaligned buffer"
    );
    assert_eq!(bytes.len() % std::mem::size_of::<T>(), 0, "partial element");
}

macro_rules! plain_element {
    ($($t:ty => $e:ident),* $(,)?) => {$(
        impl sealed::Sealed for $t {}
        impl TensorElement for $t {
            const ELEM: ElemType = ElemType::$e;

            fn view(bytes: &[u8]) -> Result<&[$t]> {
                check_layout::<$t>(bytes);
                let n = bytes.len() / std::mem::size_of::<$t>();
                // SAFETY: aligned and a whole number of values (checked);
                // `$t` has no padding and every bit pattern is a value.
                Ok(unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast(), n) })
            }

            fn view_mut(bytes: &mut [u8]) -> Result<&mut [$t]> {
                check_layout::<$t>(bytes);
                let n = bytes.len() / std::mem::size_of::<$t>();
                // SAFETY: as in `view`; the borrow is unique.
                Ok(unsafe { std::slice::from_raw_parts_mut(bytes.as_mut_ptr().cast(), n) })
            }

            fn bytes_of(values: &[$t]) -> &[u8] {
                // SAFETY: `$t` has no padding, so all its bytes are initialized.
                unsafe {
                    std::slice::from_raw_parts(
                        values.as_ptr().cast(),
                        std::mem::size_of_val(values),
                    )
                }
            }
        }
    )*};
}

plain_element! {
    f32 => F32, f64 => F64, f16 => F16, bf16 => BF16,
    i8 => I8, i16 => I16, i32 => I32, i64 => I64,
    u8 => U8, u16 => U16, u32 => U32, u64 => U64,
}

/// The first byte of a bool buffer that is neither 0 nor 1.
fn check_bools(bytes: &[u8]) -> Result<()> {
    match bytes.iter().find(|&&b| b > 1) {
        Some(&b) => Err(RuntimeError::InvalidBool(b)),
        None => Ok(()),
    }
}

impl sealed::Sealed for bool {}
impl TensorElement for bool {
    const ELEM: ElemType = ElemType::Bool;

    fn view(bytes: &[u8]) -> Result<&[bool]> {
        check_bools(bytes)?;
        // SAFETY: every byte is 0 or 1, the two valid `bool` bit patterns;
        // `bool` is one byte with alignment 1.
        Ok(unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast(), bytes.len()) })
    }

    fn view_mut(bytes: &mut [u8]) -> Result<&mut [bool]> {
        check_bools(bytes)?;
        // SAFETY: as in `view`; writes through `&mut [bool]` store only 0 or 1.
        Ok(unsafe { std::slice::from_raw_parts_mut(bytes.as_mut_ptr().cast(), bytes.len()) })
    }

    fn bytes_of(values: &[bool]) -> &[u8] {
        // SAFETY: a `bool` is one initialized byte.
        unsafe { std::slice::from_raw_parts(values.as_ptr().cast(), values.len()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bool_views_reject_other_bytes() {
        assert_eq!(bool::view(&[0, 1, 1]).unwrap(), &[false, true, true]);
        assert_eq!(bool::view(&[0, 2]), Err(RuntimeError::InvalidBool(2)));
        assert_eq!(bool::bytes_of(&[true, false]), &[1, 0]);
    }
}
