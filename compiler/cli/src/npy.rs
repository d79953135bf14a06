//! NumPy's `.npy` files, for `onnx-mlc run` inputs and outputs.
//!
//! The format (numpy's `lib/format.py`, versions 1.0–3.0): the magic
//! `\x93NUMPY`, a major and minor version byte, the header length (2 bytes
//! little-endian in 1.0, 4 bytes in 2.0 and 3.0), then the header — a Python
//! dict literal `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }`
//! padded with spaces to a multiple of 64 bytes and ending in a newline —
//! then the data, in C or Fortran order as `fortran_order` says, in the
//! byte order `descr` names.
//!
//! Only what maps onto a tensor is read: the fixed-width numeric types and
//! `bool`, in either byte order and either element order (`np.save` of a
//! transposed array writes Fortran order); they are read into C order,
//! little-endian. Anything else (structured, string or object arrays) is an
//! error naming it, never a guess. Written files are C order,
//! little-endian.

use anyhow::{anyhow, bail, Context, Result};
use onnx_mlc::Tensor;
use onnx_mlc_dialect::tensor::checked_numel;
use onnx_mlc_dialect::{ElemType, TensorData};
use onnx_mlc_optimizer::eval::transpose;

const MAGIC: &[u8] = b"\x93NUMPY";

/// The element types `.npy` files can hold, with numpy's type code (kind
/// and size, as in `descr` without its byte-order character).
const TYPES: &[(ElemType, &str)] = &[
    (ElemType::F32, "f4"),
    (ElemType::F64, "f8"),
    (ElemType::F16, "f2"),
    (ElemType::I8, "i1"),
    (ElemType::I16, "i2"),
    (ElemType::I32, "i4"),
    (ElemType::I64, "i8"),
    (ElemType::U8, "u1"),
    (ElemType::U16, "u2"),
    (ElemType::U32, "u4"),
    (ElemType::U64, "u8"),
    (ElemType::Bool, "b1"),
];

/// Decodes a `.npy` file's bytes into a tensor.
pub fn decode(bytes: &[u8]) -> Result<Tensor> {
    let rest = bytes
        .strip_prefix(MAGIC)
        .ok_or_else(|| anyhow!("not a .npy file (no \\x93NUMPY magic)"))?;
    let (version, rest) = rest
        .split_at_checked(2)
        .ok_or_else(|| anyhow!("truncated .npy header"))?;
    let len_bytes = match version[0] {
        1 => 2,
        2 | 3 => 4,
        v => bail!(".npy format version {v}.{} is not supported", version[1]),
    };
    let (len, rest) = rest
        .split_at_checked(len_bytes)
        .ok_or_else(|| anyhow!("truncated .npy header"))?;
    let header_len = len
        .iter()
        .rev()
        .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
    let (header, data) = rest
        .split_at_checked(header_len)
        .ok_or_else(|| anyhow!("truncated .npy header"))?;
    let header = std::str::from_utf8(header).context(".npy header is not text")?;
    let Header {
        elem,
        shape,
        fortran,
        big_endian,
    } = Header::parse(header).with_context(|| format!(".npy header {header:?}"))?;
    let expected = checked_numel(&shape).map(|n| elem.packed_bytes(n));
    if expected != Some(data.len()) {
        bail!(
            ".npy data: {} bytes, but shape {shape:?} of {elem} needs {}",
            data.len(),
            expected.map_or("more than fit in memory".to_string(), |n| n.to_string())
        );
    }
    let width = elem.bit_width().div_ceil(8) as usize;
    let mut bytes = if fortran {
        c_order(elem, &shape, data)?
    } else {
        data.to_vec()
    };
    if big_endian {
        bytes.chunks_exact_mut(width).for_each(<[u8]>::reverse);
    }
    Tensor::from_bytes(elem, &shape, &bytes).map_err(|e| anyhow!(".npy data: {e}"))
}

/// The data of a Fortran-order array of `shape` (the first index varying
/// fastest), in C order: the C-order array of the reversed shape,
/// transposed by the reversed axes.
fn c_order(elem: ElemType, shape: &[i64], data: &[u8]) -> Result<Vec<u8>> {
    let reversed: Vec<i64> = shape.iter().rev().copied().collect();
    let as_stored = TensorData::from_raw(elem, reversed, data.to_vec().into())
        .map_err(|e| anyhow!(".npy data: {e}"))?;
    let perm: Vec<i64> = (0..shape.len() as i64).rev().collect();
    transpose(&as_stored, &perm)
        .and_then(|t| t.raw().map(|b| b.to_vec()))
        .ok_or_else(|| anyhow!(".npy data: cannot reorder {elem} elements"))
}

/// Encodes a tensor as a `.npy` file (format 1.0).
pub fn encode(t: &Tensor) -> Result<Vec<u8>> {
    let code = TYPES
        .iter()
        .find(|(e, _)| *e == t.elem())
        .map(|(_, c)| *c)
        .ok_or_else(|| anyhow!("element type {} has no .npy equivalent", t.elem()))?;
    let order = if t.elem().bit_width() == 8 { '|' } else { '<' };
    let shape = match t.shape() {
        [d] => format!("({d},)"),
        dims => format!(
            "({})",
            dims.iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut header =
        format!("{{'descr': '{order}{code}', 'fortran_order': False, 'shape': {shape}, }}");
    // Magic, version, length, header and its newline: a multiple of 64.
    let unpadded = MAGIC.len() + 2 + 2 + header.len() + 1;
    header.extend(std::iter::repeat_n(
        ' ',
        unpadded.next_multiple_of(64) - unpadded,
    ));
    header.push('\n');
    let header_len = u16::try_from(header.len())
        .map_err(|_| anyhow!("shape {:?} makes a .npy header too long", t.shape()))?;
    let mut out = Vec::with_capacity(MAGIC.len() + 4 + header.len() + t.as_bytes().len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[1, 0]);
    out.extend_from_slice(&header_len.to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(t.as_bytes());
    Ok(out)
}

/// What a `.npy` header says.
#[derive(Debug, PartialEq)]
struct Header {
    elem: ElemType,
    shape: Vec<i64>,
    /// Whether the data is in Fortran order (the first index fastest).
    fortran: bool,
    /// Whether the elements are big-endian.
    big_endian: bool,
}

/// A value of the header's dict literal.
#[derive(Debug, PartialEq)]
enum Literal {
    Str(String),
    Bool(bool),
    Tuple(Vec<i64>),
}

impl Header {
    fn parse(text: &str) -> Result<Header> {
        let mut p = Parser { rest: text.trim() };
        let (mut descr, mut fortran, mut shape) = (None, None, None);
        p.expect('{')?;
        while !p.eat('}') {
            let key = p.string()?;
            p.expect(':')?;
            let value = p.literal()?;
            match (key.as_str(), value) {
                ("descr", Literal::Str(s)) => descr = Some(s),
                ("fortran_order", Literal::Bool(b)) => fortran = Some(b),
                ("shape", Literal::Tuple(t)) => shape = Some(t),
                (k, v) => bail!("unexpected entry '{k}': {v:?}"),
            }
            if !p.eat(',') {
                p.expect('}')?;
                break;
            }
        }
        if !p.rest.is_empty() {
            bail!("text after the dict: {:?}", p.rest);
        }
        let descr = descr.ok_or_else(|| anyhow!("no 'descr'"))?;
        let fortran = fortran.ok_or_else(|| anyhow!("no 'fortran_order'"))?;
        let shape = shape.ok_or_else(|| anyhow!("no 'shape'"))?;
        let (elem, big_endian) = elem_of(&descr)?;
        Ok(Header {
            elem,
            shape,
            fortran,
            big_endian,
        })
    }
}

/// The element type of a `descr` such as `<f4` or `|b1`, and whether it is
/// big-endian.
fn elem_of(descr: &str) -> Result<(ElemType, bool)> {
    let unsupported = || anyhow!("dtype '{descr}' is not supported");
    let (order, code) = descr.split_at_checked(1).ok_or_else(unsupported)?;
    let (elem, _) = TYPES
        .iter()
        .find(|(_, c)| *c == code)
        .ok_or_else(unsupported)?;
    // '=' is native order: little-endian on every target onnx-mlc runs on.
    let single = elem.bit_width() == 8;
    match order {
        "<" | "=" => Ok((*elem, false)),
        "|" if single => Ok((*elem, false)),
        ">" => Ok((*elem, !single)),
        _ => Err(unsupported()),
    }
}

/// A cursor over the header's dict literal.
struct Parser<'a> {
    rest: &'a str,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        self.rest = self.rest.trim_start();
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_space();
        match self.rest.strip_prefix(c) {
            Some(rest) => {
                self.rest = rest;
                true
            }
            None => false,
        }
    }

    fn expect(&mut self, c: char) -> Result<()> {
        if self.eat(c) {
            Ok(())
        } else {
            bail!("expected '{c}' at {:?}", self.rest)
        }
    }

    fn string(&mut self) -> Result<String> {
        self.skip_space();
        let quote = self
            .rest
            .chars()
            .next()
            .filter(|c| matches!(c, '\'' | '"'))
            .ok_or_else(|| anyhow!("expected a string at {:?}", self.rest))?;
        let body = &self.rest[1..];
        let end = body
            .find(quote)
            .ok_or_else(|| anyhow!("unterminated string"))?;
        self.rest = &body[end + 1..];
        Ok(body[..end].to_string())
    }

    fn literal(&mut self) -> Result<Literal> {
        self.skip_space();
        if self.rest.starts_with(['\'', '"']) {
            return self.string().map(Literal::Str);
        }
        for (word, value) in [("True", true), ("False", false)] {
            if let Some(rest) = self.rest.strip_prefix(word) {
                self.rest = rest;
                return Ok(Literal::Bool(value));
            }
        }
        self.expect('(')?;
        let mut dims = vec![];
        while !self.eat(')') {
            let digits = self
                .rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(self.rest.len());
            // Python 2 era files may write `3L`.
            let dim: i64 = self.rest[..digits]
                .parse()
                .map_err(|_| anyhow!("expected a dim at {:?}", self.rest))?;
            self.rest = self.rest[digits..]
                .strip_prefix('L')
                .unwrap_or(&self.rest[digits..]);
            dims.push(dim);
            if !self.eat(',') {
                self.expect(')')?;
                break;
            }
            self.skip_space();
        }
        Ok(Literal::Tuple(dims))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `np.save` writes for `np.arange(6, dtype=np.float32).reshape(2, 3)`.
    fn numpy_f32_2x3() -> Vec<u8> {
        let mut b = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
        let header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
        b.extend_from_slice(header.as_bytes());
        b.extend(std::iter::repeat_n(b' ', 118 - header.len() - 1));
        b.push(b'\n');
        for v in 0..6 {
            b.extend_from_slice(&(v as f32).to_le_bytes());
        }
        b
    }

    #[test]
    fn reads_what_numpy_writes() {
        let t = decode(&numpy_f32_2x3()).unwrap();
        assert_eq!(t.shape(), [2, 3]);
        assert_eq!(t.to_vec::<f32>().unwrap(), [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
    }

    #[test]
    fn reads_fortran_order_and_big_endian_data_into_c_order() {
        // np.save of np.asfortranarray(np.arange(12).reshape(2, 3, 2)).astype('>i2').
        let header = "{'descr': '>i2', 'fortran_order': True, 'shape': (2, 3, 2), }";
        let mut b = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
        b.extend_from_slice(header.as_bytes());
        b.extend(std::iter::repeat_n(b' ', 118 - header.len() - 1));
        b.push(b'\n');
        for v in [0i16, 6, 2, 8, 4, 10, 1, 7, 3, 9, 5, 11] {
            b.extend_from_slice(&v.to_be_bytes());
        }
        let t = decode(&b).unwrap();
        assert_eq!(t.shape(), [2, 3, 2]);
        assert_eq!(t.to_vec::<i16>().unwrap(), (0..12).collect::<Vec<i16>>());
    }

    #[test]
    fn writes_what_numpy_writes() {
        let t = Tensor::from_vec(vec![2, 3], (0..6).map(|v| v as f32).collect()).unwrap();
        assert_eq!(encode(&t).unwrap(), numpy_f32_2x3());
    }

    #[test]
    fn round_trips_every_type_and_rank() {
        let tensors = [
            Tensor::scalar(7i64),
            Tensor::from_vec(vec![3], vec![true, false, true]).unwrap(),
            Tensor::from_vec(vec![0, 4], Vec::<u8>::new()).unwrap(),
            Tensor::from_vec(vec![1, 2, 2], vec![-1i8, 2, -3, 4]).unwrap(),
            Tensor::from_vec(vec![2], vec![1.5f64, -2.25]).unwrap(),
        ];
        for t in tensors {
            let bytes = encode(&t).unwrap();
            assert_eq!(
                bytes[8..10],
                [(bytes.len() - t.as_bytes().len() - 10) as u8, 0]
            );
            assert_eq!((bytes.len() - t.as_bytes().len()) % 64, 0);
            assert_eq!(decode(&bytes).unwrap(), t, "{t:?}");
        }
    }

    #[test]
    fn headers_numpy_accepts_parse() {
        let parse = |s| Header::parse(s).map_err(|e| e.to_string());
        let f32_ = |shape: &[i64]| {
            Ok(Header {
                elem: ElemType::F32,
                shape: shape.to_vec(),
                fortran: false,
                big_endian: false,
            })
        };
        assert_eq!(
            parse("{'descr': '<f4', 'fortran_order': False, 'shape': (), }"),
            f32_(&[])
        );
        assert_eq!(
            parse("{\"shape\": (5,), \"descr\": \"=f4\", \"fortran_order\": False}"),
            f32_(&[5])
        );
        assert_eq!(
            parse("{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 3L)}"),
            f32_(&[2, 3])
        );
        assert_eq!(
            parse("{'descr': '|b1', 'fortran_order': False, 'shape': (1,), }").map(|h| h.elem),
            Ok(ElemType::Bool)
        );
    }

    #[test]
    fn what_is_not_a_tensor_is_an_error() {
        let err = |bytes: &[u8]| decode(bytes).unwrap_err().to_string();
        assert_eq!(err(b"PK\x03\x04"), "not a .npy file (no \\x93NUMPY magic)");
        assert_eq!(err(b"\x93NUMPY\x01\x00\x76"), "truncated .npy header");
        assert_eq!(
            err(b"\x93NUMPY\x04\x00\x00\x00"),
            ".npy format version 4.0 is not supported"
        );
        let with_header = |h: &str| {
            let mut b = b"\x93NUMPY\x01\x00".to_vec();
            b.extend_from_slice(&(h.len() as u16).to_le_bytes());
            b.extend_from_slice(h.as_bytes());
            b
        };
        let chain = |bytes: &[u8]| format!("{:#}", decode(bytes).unwrap_err());
        assert!(chain(&with_header(
            "{'descr': '<U3', 'fortran_order': False, 'shape': (1,), }"
        ))
        .ends_with("dtype '<U3' is not supported"));
        assert!(chain(&with_header(
            "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }"
        ))
        .ends_with("expected '(' at \"[('a', '<f4')], 'fortran_order': False, 'shape': (1,), }\""));
        // Four floats declared, three given.
        let mut short = with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }");
        short.extend_from_slice(&[0; 12]);
        assert_eq!(
            err(&short),
            ".npy data: 12 bytes, but shape [4] of f32 needs 16"
        );
    }
}
