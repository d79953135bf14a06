//! Round trips through the text form, for tests over any model: whatever
//! the importer, a pass or the parser produced must print to text that
//! parses back to a model that prints the same.

use onnx_mlc_dialect::{parse_model, print_model, Model, PrintOptions};

use crate::diff::line_diff;

/// Prints `model` with `options`, parses the text and checks that the
/// parsed model prints to the same text; returns the parsed model.
pub fn reparse(model: &Model, options: &PrintOptions) -> Result<Model, String> {
    let text = print_model(model, options);
    let parsed =
        parse_model(&text).map_err(|e| format!("the printed model does not parse: {e}\n{text}"))?;
    let again = print_model(&parsed, options);
    if again != text {
        return Err(format!(
            "printing is not stable across a parse:\n{}",
            line_diff(&text, &again)
        ));
    }
    Ok(parsed)
}

/// The text round-trip property of a model: it prints, parses back and
/// prints identically, both in full and with large constants elided (the
/// CLI's form for big models).
pub fn check_text_round_trip(model: &Model) -> Result<(), String> {
    reparse(model, &PrintOptions::default())?;
    let elided = PrintOptions {
        elide_constants_above: Some(16),
        ..PrintOptions::default()
    };
    reparse(model, &elided).map_err(|e| format!("with constants elided: {e}"))?;
    Ok(())
}
