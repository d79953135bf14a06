//! The operator set domains of the op table.

/// An operator set domain.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Domain {
    /// `ai.onnx` (also spelled as the empty string).
    Onnx,
    /// `ai.onnx.ml`.
    Ml,
    /// `ai.onnx.preview.training`.
    Training,
    /// `ai.onnx.preview`.
    Preview,
    /// `onnx_mlc`: onnx-mlc's internal fused operators (`tools/internal_ops.py`).
    Internal,
    /// `com.microsoft`: onnxruntime's contrib operators (`tools/contrib_ops.py`).
    Microsoft,
}

impl Domain {
    /// Every domain.
    pub const ALL: [Domain; 6] = [
        Domain::Onnx,
        Domain::Ml,
        Domain::Training,
        Domain::Preview,
        Domain::Internal,
        Domain::Microsoft,
    ];

    /// The domain's name in `opset_import` (`""` for ai.onnx).
    pub fn name(self) -> &'static str {
        match self {
            Domain::Onnx => "",
            Domain::Ml => "ai.onnx.ml",
            Domain::Training => "ai.onnx.preview.training",
            Domain::Preview => "ai.onnx.preview",
            Domain::Internal => "onnx_mlc",
            Domain::Microsoft => "com.microsoft",
        }
    }

    /// Parses a domain name; both `""` and `"ai.onnx"` are ai.onnx.
    pub fn from_name(name: &str) -> Option<Domain> {
        match name {
            "" | "ai.onnx" => Some(Domain::Onnx),
            _ => Domain::ALL.into_iter().find(|d| d.name() == name),
        }
    }

    /// The prefix of op names in the text form (`onnx.Conv`,
    /// `onnx_ml.Scaler`, `ms.Attention`, …).
    pub fn text_prefix(self) -> &'static str {
        match self {
            Domain::Onnx => "onnx",
            Domain::Ml => "onnx_ml",
            Domain::Training => "onnx_training",
            Domain::Preview => "onnx_preview",
            Domain::Internal => "omlc",
            Domain::Microsoft => "ms",
        }
    }

    /// Parses a text-form prefix (inverse of [`Domain::text_prefix`]).
    pub fn from_text_prefix(prefix: &str) -> Option<Domain> {
        Domain::ALL.into_iter().find(|d| d.text_prefix() == prefix)
    }
}
