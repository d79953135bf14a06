//! The runtime's tensor: owned, 64-byte aligned, contiguous and row-major,
//! of any fixed-width ONNX element type.
//!
//! The buffer holds exactly what compiled code reads and writes through an
//! `omlc_tensor`: native-endian values, `bool` as one byte (0 or 1), and the
//! sub-byte types (int4, float4, …) packed low bits first as in ONNX's
//! `raw_data`. Every target we compile for is little-endian, so that is
//! also `raw_data`'s layout and converting to and from
//! [`TensorData`] is a copy.
//!
//! String tensors are not supported yet: their constructors return
//! [`RuntimeError::Unsupported`]. The storage is private, so adding them
//! (as one more kind of storage next to the byte buffer) changes no
//! signature.

use std::fmt;

use bytes::Bytes;
use onnx_mlc_dialect::tensor::Payload;
use onnx_mlc_dialect::{ElemType, TensorData};
use serde::{Deserialize, Serialize};

use crate::alloc::AlignedBuf;
use crate::element::TensorElement;
use crate::error::{Result, RuntimeError};

#[cfg(target_endian = "big")]
compile_error!("the onnx-mlc runtime assumes a little-endian target (ONNX raw_data layout)");

/// An owned dense tensor.
#[derive(Clone, Serialize, Deserialize)]
#[serde(try_from = "TensorData", into = "TensorData")]
pub struct Tensor {
    elem: ElemType,
    shape: Vec<i64>,
    buf: AlignedBuf,
}

/// Number of elements and bytes of a tensor of this type and shape.
pub(crate) fn tensor_size(elem: ElemType, shape: &[i64]) -> Result<(usize, usize)> {
    if elem == ElemType::String {
        return Err(RuntimeError::Unsupported("string tensors are".into()));
    }
    let invalid = || RuntimeError::Shape(shape.to_vec());
    let numel = onnx_mlc_dialect::tensor::checked_numel(shape).ok_or_else(invalid)?;
    let bits = numel
        .checked_mul(elem.bit_width() as usize)
        .ok_or_else(invalid)?;
    let bytes = bits.div_ceil(8);
    if bytes > isize::MAX as usize {
        return Err(invalid());
    }
    Ok((numel, bytes))
}

impl Tensor {
    /// Wraps a buffer whose length was checked against the type and shape.
    pub(crate) fn from_parts(elem: ElemType, shape: Vec<i64>, buf: AlignedBuf) -> Tensor {
        debug_assert_eq!(
            tensor_size(elem, &shape).map(|s| s.1),
            Ok(buf.as_bytes().len())
        );
        Tensor { elem, shape, buf }
    }

    /// A zero-filled tensor (`false` for bool, `+0.0` for floats).
    pub fn zeros(elem: ElemType, shape: &[i64]) -> Result<Tensor> {
        let (_, bytes) = tensor_size(elem, shape)?;
        Ok(Tensor::from_parts(
            elem,
            shape.to_vec(),
            AlignedBuf::zeroed(bytes)?,
        ))
    }

    /// A tensor copied from typed values in row-major order.
    pub fn from_slice<T: TensorElement>(shape: &[i64], values: &[T]) -> Result<Tensor> {
        let (numel, _) = tensor_size(T::ELEM, shape)?;
        if numel != values.len() {
            return Err(RuntimeError::DataLength {
                shape: shape.to_vec(),
                expected: numel,
                got: values.len(),
            });
        }
        let buf = AlignedBuf::copy_of(T::bytes_of(values))?;
        Ok(Tensor::from_parts(T::ELEM, shape.to_vec(), buf))
    }

    /// A tensor from typed values in row-major order (copied into aligned
    /// memory).
    pub fn from_vec<T: TensorElement>(shape: Vec<i64>, values: Vec<T>) -> Result<Tensor> {
        Tensor::from_slice(&shape, &values)
    }

    /// A rank-0 tensor.
    pub fn scalar<T: TensorElement>(value: T) -> Tensor {
        Tensor::from_slice(&[], &[value]).expect("a scalar always fits")
    }

    /// A tensor from raw bytes in the runtime layout (native-endian,
    /// sub-byte types packed); for element types without a Rust type.
    pub fn from_bytes(elem: ElemType, shape: &[i64], bytes: &[u8]) -> Result<Tensor> {
        let (_, len) = tensor_size(elem, shape)?;
        if len != bytes.len() {
            return Err(RuntimeError::DataLength {
                shape: shape.to_vec(),
                expected: len,
                got: bytes.len(),
            });
        }
        if elem == ElemType::Bool {
            bool::view(bytes)?;
        }
        Ok(Tensor::from_parts(
            elem,
            shape.to_vec(),
            AlignedBuf::copy_of(bytes)?,
        ))
    }

    /// A tensor holding a copy of constant data (an initializer, a
    /// `.pb` test input).
    pub fn from_tensor_data(data: &TensorData) -> Result<Tensor> {
        match &data.payload {
            Payload::Raw(raw) => Tensor::from_bytes(data.elem, &data.dims, raw),
            Payload::Strings(_) => Err(RuntimeError::Unsupported("string tensors are".into())),
            Payload::Elided => Err(RuntimeError::Elided(data.elem)),
        }
    }

    /// The tensor as constant data (a copy), e.g. to write a `.pb` file.
    pub fn to_tensor_data(&self) -> TensorData {
        let raw = Bytes::copy_from_slice(self.as_bytes());
        TensorData::from_raw(self.elem, self.shape.clone(), raw)
            .expect("a tensor's byte length matches its shape")
    }

    /// The element type.
    pub fn elem(&self) -> ElemType {
        self.elem
    }

    /// The dims.
    pub fn shape(&self) -> &[i64] {
        &self.shape
    }

    /// The number of dims.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The number of elements.
    pub fn numel(&self) -> usize {
        self.shape.iter().map(|&d| d as usize).product()
    }

    /// The raw bytes (runtime layout).
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.as_bytes()
    }

    /// The raw bytes, writable. Writing a byte other than 0 or 1 into a bool
    /// tensor makes its typed views fail.
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        self.buf.as_bytes_mut()
    }

    /// The values, when the element type is `T`'s.
    pub fn as_slice<T: TensorElement>(&self) -> Result<&[T]> {
        self.expect_elem::<T>()?;
        T::view(self.buf.as_bytes())
    }

    /// The values, writable, when the element type is `T`'s.
    pub fn as_mut_slice<T: TensorElement>(&mut self) -> Result<&mut [T]> {
        self.expect_elem::<T>()?;
        T::view_mut(self.buf.as_bytes_mut())
    }

    /// A copy of the values, when the element type is `T`'s.
    pub fn to_vec<T: TensorElement>(&self) -> Result<Vec<T>> {
        Ok(self.as_slice::<T>()?.to_vec())
    }

    /// The buffer's address, for compiled code.
    pub(crate) fn data_ptr(&self) -> *mut u8 {
        self.buf.as_ptr()
    }

    fn expect_elem<T: TensorElement>(&self) -> Result<()> {
        if self.elem != T::ELEM {
            return Err(RuntimeError::ElemType {
                expected: T::ELEM,
                got: self.elem,
            });
        }
        Ok(())
    }
}

/// Serialized tensors (constants of a host program) are written as
/// [`TensorData`] and checked like built ones when read back.
impl TryFrom<TensorData> for Tensor {
    type Error = RuntimeError;

    fn try_from(data: TensorData) -> Result<Tensor> {
        Tensor::from_tensor_data(&data)
    }
}

impl From<Tensor> for TensorData {
    fn from(t: Tensor) -> TensorData {
        t.to_tensor_data()
    }
}

impl fmt::Debug for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tensor")
            .field("elem", &self.elem)
            .field("shape", &self.shape)
            .field("bytes", &self.buf.as_bytes().len())
            .finish()
    }
}

impl PartialEq for Tensor {
    /// Same type, shape and bytes (so `NaN == NaN` and `-0.0 != 0.0`).
    fn eq(&self, other: &Tensor) -> bool {
        self.elem == other.elem && self.shape == other.shape && self.as_bytes() == other.as_bytes()
    }
}

#[cfg(feature = "ndarray")]
mod ndarray_conv {
    //! Conversions to and from `ndarray` arrays (feature `ndarray`).

    use ndarray::{ArrayBase, ArrayD, ArrayViewD, ArrayViewMutD, Data, Dimension, IxDyn};

    use super::*;

    fn dims(t: &Tensor) -> IxDyn {
        IxDyn(&t.shape.iter().map(|&d| d as usize).collect::<Vec<_>>())
    }

    impl Tensor {
        /// A tensor holding a copy of an array of any layout (copied in
        /// logical, row-major order).
        pub fn from_array<T, S, D>(array: &ArrayBase<S, D>) -> Result<Tensor>
        where
            T: TensorElement,
            S: Data<Elem = T>,
            D: Dimension,
        {
            let shape: Vec<i64> = array.shape().iter().map(|&d| d as i64).collect();
            match array.as_slice() {
                Some(values) => Tensor::from_slice(&shape, values),
                None => Tensor::from_vec(shape, array.iter().copied().collect()),
            }
        }

        /// A zero-copy view as an array, when the element type is `T`'s.
        pub fn view<T: TensorElement>(&self) -> Result<ArrayViewD<'_, T>> {
            let values = self.as_slice::<T>()?;
            Ok(ArrayViewD::from_shape(dims(self), values).expect("shape matches length"))
        }

        /// A writable zero-copy view, when the element type is `T`'s.
        pub fn view_mut<T: TensorElement>(&mut self) -> Result<ArrayViewMutD<'_, T>> {
            let dims = dims(self);
            let values = self.as_mut_slice::<T>()?;
            Ok(ArrayViewMutD::from_shape(dims, values).expect("shape matches length"))
        }

        /// A copy as an owned array, when the element type is `T`'s.
        pub fn to_array<T: TensorElement>(&self) -> Result<ArrayD<T>> {
            Ok(self.view::<T>()?.to_owned())
        }
    }

    impl<T: TensorElement, D: Dimension> TryFrom<ndarray::Array<T, D>> for Tensor {
        type Error = RuntimeError;

        fn try_from(array: ndarray::Array<T, D>) -> Result<Tensor> {
            Tensor::from_array(&array)
        }
    }

    impl<T: TensorElement> TryFrom<&Tensor> for ArrayD<T> {
        type Error = RuntimeError;

        fn try_from(tensor: &Tensor) -> Result<ArrayD<T>> {
            tensor.to_array()
        }
    }
}

#[cfg(test)]
mod tests {
    use half::f16;

    use super::*;

    #[test]
    fn typed_views_check_the_element_type() {
        let mut t = Tensor::from_vec(vec![2, 3], vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
        assert_eq!((t.elem(), t.rank(), t.numel()), (ElemType::F32, 2, 6));
        assert_eq!(t.as_slice::<f32>().unwrap()[4], 5.0);
        assert_eq!(t.as_bytes().len(), 24);
        assert_eq!(t.data_ptr() as usize % 64, 0);
        assert_eq!(
            t.as_slice::<i32>(),
            Err(RuntimeError::ElemType {
                expected: ElemType::I32,
                got: ElemType::F32
            })
        );
        t.as_mut_slice::<f32>().unwrap()[0] = -1.0;
        assert_eq!(t.to_vec::<f32>().unwrap()[0], -1.0);
        assert!(t.as_mut_slice::<f64>().is_err());
    }

    #[test]
    fn constructors_check_lengths_and_shapes() {
        assert_eq!(
            Tensor::from_slice(&[2, 2], &[1i64, 2, 3])
                .unwrap_err()
                .to_string(),
            "shape [2, 2] holds 4 elements, got 3 values"
        );
        assert_eq!(
            Tensor::zeros(ElemType::F32, &[2, -1]).unwrap_err(),
            RuntimeError::Shape(vec![2, -1])
        );
        assert_eq!(
            Tensor::zeros(ElemType::U8, &[i64::MAX, 4]).unwrap_err(),
            RuntimeError::Shape(vec![i64::MAX, 4])
        );
        assert_eq!(
            Tensor::zeros(ElemType::String, &[1])
                .unwrap_err()
                .to_string(),
            "string tensors are not supported by the runtime yet"
        );
        assert_eq!(
            Tensor::from_bytes(ElemType::Bool, &[2], &[1, 3]).unwrap_err(),
            RuntimeError::InvalidBool(3)
        );
        let empty = Tensor::zeros(ElemType::F64, &[0, 5]).unwrap();
        assert_eq!((empty.numel(), empty.as_bytes().len()), (0, 0));
        assert_eq!(Tensor::scalar(7u16).shape(), &[] as &[i64]);
    }

    #[test]
    fn zeros_of_every_fixed_width_type_have_packed_sizes() {
        for elem in ElemType::ALL.into_iter().filter(|&e| e != ElemType::String) {
            let t = Tensor::zeros(elem, &[3, 5]).unwrap();
            assert_eq!(t.as_bytes().len(), elem.packed_bytes(15), "{elem}");
            assert!(t.as_bytes().iter().all(|&b| b == 0));
        }
    }

    #[test]
    fn tensor_data_round_trips() {
        let data =
            TensorData::from_vec(vec![2], &[f16::from_f32(1.5), f16::from_f32(-2.0)]).unwrap();
        let t = Tensor::from_tensor_data(&data).unwrap();
        assert_eq!(t.as_slice::<f16>().unwrap()[1], f16::from_f32(-2.0));
        assert!(t.to_tensor_data() == data);

        // int4: 3 values packed into 2 bytes, low nibble first.
        let packed =
            TensorData::from_raw(ElemType::I4, vec![3], Bytes::from_static(&[0x21, 0x0f])).unwrap();
        let t = Tensor::from_tensor_data(&packed).unwrap();
        assert_eq!(t.as_bytes(), &[0x21, 0x0f]);
        assert!(t.to_tensor_data() == packed);

        let strings = TensorData::from_strings(vec![1], vec![b"a".to_vec()]).unwrap();
        assert!(matches!(
            Tensor::from_tensor_data(&strings),
            Err(RuntimeError::Unsupported(_))
        ));
        let elided = TensorData::elided(ElemType::F32, vec![4]);
        assert_eq!(
            Tensor::from_tensor_data(&elided),
            Err(RuntimeError::Elided(ElemType::F32))
        );
    }

    #[test]
    fn bools_are_bytes() {
        let t = Tensor::from_slice(&[3], &[true, false, true]).unwrap();
        assert_eq!(t.as_bytes(), &[1, 0, 1]);
        let mut t = t;
        t.as_bytes_mut()[1] = 9;
        assert_eq!(t.as_slice::<bool>(), Err(RuntimeError::InvalidBool(9)));
    }

    #[cfg(feature = "ndarray")]
    #[test]
    fn ndarray_conversions() {
        use ndarray::{array, ArrayD, IxDyn};

        let a = array![[1i32, 2, 3], [4, 5, 6]];
        let t = Tensor::try_from(a.clone()).unwrap();
        assert_eq!(t.shape(), &[2, 3]);
        assert_eq!(t.view::<i32>().unwrap(), a.clone().into_dyn());

        // A transposed (non-standard layout) array is copied in logical order.
        let t = Tensor::from_array(&a.t()).unwrap();
        assert_eq!(t.shape(), &[3, 2]);
        assert_eq!(t.as_slice::<i32>().unwrap(), &[1, 4, 2, 5, 3, 6]);

        let mut t = t;
        t.view_mut::<i32>().unwrap()[[2, 1]] = 60;
        let back = ArrayD::<i32>::try_from(&t).unwrap();
        assert_eq!(back[IxDyn(&[2, 1])], 60);
        assert!(t.to_array::<f32>().is_err());
    }
}
