//! Memory-mapped files: the model itself and its external data.
//!
//! Large models keep their weights outside the protobuf (the IR spec's
//! external data: `location`, `offset`, `length`, `checksum` on a
//! `TensorProto`). Each data file is mapped once and every tensor in it
//! becomes a [`Bytes`] view of the mapping, so weights are never copied.
//!
//! A model is untrusted input: `location` must be a relative path that
//! stays inside the model's folder. Absolute paths and `..` components are
//! rejected outright, and the resolved path is canonicalized (following
//! symlinks) and must still lie under the canonical model folder.

use std::collections::HashMap;
use std::fs::File;
use std::path::{Component, Path, PathBuf};

use bytes::Bytes;
use onnx_mlc_proto::StringStringEntryProto;
use sha1::{Digest, Sha1};

use crate::error::{ImportError, Result};

/// Maps a whole file read-only and wraps the mapping in a [`Bytes`].
pub(crate) fn map_file(path: &Path) -> std::io::Result<Bytes> {
    let file = File::open(path)?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(std::io::Error::other("is a folder, not a file"));
    }
    if meta.len() == 0 {
        return Ok(Bytes::new());
    }
    // SAFETY: the mapping is read-only and we never hand out mutable access.
    // Like every file mapping it assumes no other process truncates or
    // rewrites the file while the model is in use (the same contract as
    // onnxruntime's and tract's model loading).
    let map = unsafe { memmap2::Mmap::map(&file) }?;
    Ok(Bytes::from_owner(map))
}

/// The external data of one model: its folder and the files mapped so far.
pub(crate) struct ExternalFiles {
    /// The model's folder, canonicalized; `None` for in-memory models
    /// without a folder (external data is then an error).
    base: Option<PathBuf>,
    /// Mapped data files by canonical path.
    files: HashMap<PathBuf, Bytes>,
}

/// The recognized `external_data` keys of one tensor.
struct Location<'a> {
    location: &'a str,
    offset: Option<&'a str>,
    length: Option<&'a str>,
    checksum: Option<&'a str>,
}

impl ExternalFiles {
    /// External data resolved relative to `base` (the model's folder).
    pub(crate) fn new(base: Option<&Path>) -> Result<ExternalFiles> {
        let base = base
            .map(|b| {
                b.canonicalize().map_err(|source| ImportError::Io {
                    path: b.to_path_buf(),
                    source,
                })
            })
            .transpose()?;
        Ok(ExternalFiles {
            base,
            files: HashMap::new(),
        })
    }

    /// The bytes of tensor `tensor`'s external data described by `entries`.
    pub(crate) fn load(
        &mut self,
        tensor: &str,
        entries: &[StringStringEntryProto],
    ) -> Result<Bytes> {
        let loc = parse_entries(tensor, entries)?;
        let err = |path: &Path, message: String| ImportError::ExternalData {
            tensor: tensor.to_string(),
            path: path.to_path_buf(),
            message,
        };
        let relative = Path::new(loc.location);
        if relative.is_absolute() || relative.has_root() {
            return Err(err(relative, "absolute locations are not allowed".into()));
        }
        if let Some(c) = relative
            .components()
            .find(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
        {
            let what = match c {
                Component::ParentDir => "`..` components are not allowed".to_string(),
                other => format!("path component {:?} is not allowed", other.as_os_str()),
            };
            return Err(err(relative, what));
        }
        let Some(base) = &self.base else {
            return Err(err(
                relative,
                "the model's folder is unknown (model not loaded from a file)".into(),
            ));
        };
        let joined = base.join(relative);
        let path = joined
            .canonicalize()
            .map_err(|e| err(&joined, e.to_string()))?;
        if !path.starts_with(base) {
            return Err(err(
                &joined,
                format!("resolves to {}, outside the model's folder", path.display()),
            ));
        }
        let file = match self.files.get(&path) {
            Some(bytes) => bytes.clone(),
            None => {
                let bytes = map_file(&path).map_err(|e| err(&path, e.to_string()))?;
                self.files.insert(path.clone(), bytes.clone());
                bytes
            }
        };
        let number = |key: &str, value: Option<&str>| -> Result<Option<usize>> {
            value
                .map(|v| {
                    v.trim()
                        .parse::<usize>()
                        .map_err(|_| err(&path, format!("{key} {v:?} is not a byte count")))
                })
                .transpose()
        };
        let offset = number("offset", loc.offset)?.unwrap_or(0);
        let length = number("length", loc.length)?;
        let end = match length {
            Some(n) => offset.checked_add(n),
            None => Some(file.len()),
        };
        let Some(end) = end.filter(|&end| offset <= end && end <= file.len()) else {
            return Err(err(
                &path,
                format!(
                    "offset {offset} and length {} reach past the end of the file ({} bytes)",
                    length.map_or("(rest of file)".to_string(), |n| n.to_string()),
                    file.len()
                ),
            ));
        };
        let data = file.slice(offset..end);
        if let Some(expected) = loc.checksum {
            check_sha1(&data, &file, expected).map_err(|m| err(&path, m))?;
        }
        Ok(data)
    }
}

fn parse_entries<'a>(tensor: &str, entries: &'a [StringStringEntryProto]) -> Result<Location<'a>> {
    let get = |key: &str| {
        entries
            .iter()
            .find(|e| e.key == key)
            .map(|e| e.value.as_str())
    };
    let location = get("location").filter(|l| !l.is_empty()).ok_or_else(|| {
        ImportError::tensor(
            tensor,
            "data_location is EXTERNAL but external_data has no `location`",
        )
    })?;
    Ok(Location {
        location,
        offset: get("offset"),
        length: get("length"),
        checksum: get("checksum"),
    })
}

/// Checks a SHA-1 `checksum` (hex). The IR spec's wording ("digest of the
/// file") and producers differ on whether it covers the tensor's bytes or
/// the whole file, so either is accepted.
fn check_sha1(data: &[u8], file: &[u8], expected: &str) -> Result<(), String> {
    let expected = expected.trim().to_ascii_lowercase();
    let hex = |bytes: &[u8]| -> String {
        Sha1::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let actual = hex(data);
    if actual == expected || (data.len() != file.len() && hex(file) == expected) {
        Ok(())
    } else {
        Err(format!(
            "checksum mismatch: expected SHA-1 {expected}, data has {actual}"
        ))
    }
}
