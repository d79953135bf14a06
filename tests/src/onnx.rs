//! Round trips through ONNX: a model exported as a `ModelProto`, encoded,
//! decoded and imported again, the way a model written by
//! `onnx-mlc --emit onnx-proto` is read back.

use onnx_mlc_dialect::Model;
use onnx_mlc_import::{export_model, import_model, ExportOptions, ImportOptions};
use onnx_mlc_proto::{Message, ModelProto};

/// Exports `model`, encodes and decodes the protobuf and imports it again.
pub fn through_onnx(model: &Model) -> Result<Model, String> {
    let proto =
        export_model(model, &ExportOptions::default()).map_err(|e| format!("export: {e}"))?;
    let decoded =
        ModelProto::decode(proto.encode_to_vec().as_slice()).map_err(|e| format!("decode: {e}"))?;
    import_model(&decoded, None, &ImportOptions::default())
        .map(|i| i.model)
        .map_err(|e| format!("re-import: {e}"))
}
