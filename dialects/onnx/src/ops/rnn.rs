//! Recurrent layers: `RNN`, `GRU` and `LSTM` run a cell with 1, 3 or 4
//! gates over a sequence, forward, in reverse, or both (`direction`).
//!
//! With `layout` = 0 (the default, and the only layout before opset 14)
//! `X` is `[seq, batch, input]`, `Y` is `[seq, num_directions, batch,
//! hidden]` and `Y_h`/`Y_c` (LSTM) are `[num_directions, batch, hidden]`;
//! with `layout` = 1 the batch comes first: `X` is `[batch, seq, input]`,
//! `Y` is `[batch, seq, num_directions, hidden]`, `Y_h`/`Y_c` are `[batch,
//! num_directions, hidden]`. Every output is optional and has `X`'s type.
//!
//! `num_directions` is 2 for `bidirectional`, else 1. The sizes are
//! unified across all inputs, so a missing `hidden_size` comes from the
//! weights, and weights that disagree with each other or with `X` are an
//! error: `W` is `[num_directions, gates*hidden, input]`, `R`
//! `[num_directions, gates*hidden, hidden]`, `B` `[num_directions,
//! 2*gates*hidden]`, `sequence_lens` `[batch]`, `initial_h`/`initial_c` like
//! `Y_h`, and the LSTM peepholes `P` `[num_directions, 3*hidden]`.
//! Versions: RNN 1, 7, 14, 22; GRU 1, 3, 7, 14, 22; LSTM 1, 7, 14, 22
//! (`layout` from 14; the rule is otherwise the same).

use crate::dim::Dim;
use crate::ops::ctx::{invalid, Fail, InferCtx};
use crate::ops::shape::{fmt_dims, known_tensor, unify};
use crate::schema::RnnOp;

/// The sizes every input and output of a recurrent layer share.
struct Sizes {
    seq: Dim,
    batch: Dim,
    input: Dim,
    hidden: Dim,
    directions: Dim,
}

pub(crate) fn infer(op: RnnOp, cx: &mut InferCtx) -> Result<(), Fail> {
    let (gates, lstm) = match op {
        RnnOp::RNN => (1, false),
        RnnOp::GRU => (3, false),
        RnnOp::LSTM => (4, true),
    };
    let directions = match cx.string_opt("direction")?.as_deref().unwrap_or("forward") {
        "forward" | "reverse" => 1,
        "bidirectional" => 2,
        other => {
            return Err(invalid!(
                "attribute 'direction' must be forward, reverse or bidirectional, got \"{other}\""
            ))
        }
    };
    let batch_first = match cx.int_opt("layout")?.unwrap_or(0) {
        0 => false,
        1 => true,
        v => return Err(invalid!("attribute 'layout' must be 0 or 1, got {v}")),
    };
    let hidden = match cx.int_opt("hidden_size")? {
        None => Dim::Unknown,
        Some(h) if h > 0 => Dim::Known(h),
        Some(h) => {
            return Err(invalid!(
                "attribute 'hidden_size' must be positive, got {h}"
            ))
        }
    };
    let elem = cx.elem(0)?;
    let mut s = Sizes {
        seq: Dim::Unknown,
        batch: Dim::Unknown,
        input: Dim::Unknown,
        hidden,
        directions: Dim::Known(directions),
    };

    if let Some(x) = ranked(cx, 0, "X", 3)? {
        let (seq, batch) = if batch_first { (1, 0) } else { (0, 1) };
        unify(&mut s.seq, &x[seq], || {
            format!("dim {seq} of 'X' (the sequence length)")
        })?;
        unify(&mut s.batch, &x[batch], || {
            format!("dim {batch} of 'X' (the batch size)")
        })?;
        unify(&mut s.input, &x[2], || {
            "dim 2 of 'X' (the input size)".into()
        })?;
    }
    for (i, name) in [(2, "R"), (1, "W")] {
        if let Some(w) = ranked(cx, i, name, 3)? {
            unify(&mut s.directions, &w[0], || {
                format!("dim 0 of '{name}' (num_directions)")
            })?;
            multiple(&mut s.hidden, &w[1], gates, || format!("dim 1 of '{name}'"))?;
            let (slot, what) = if i == 2 {
                (&mut s.hidden, "hidden")
            } else {
                (&mut s.input, "input")
            };
            unify(slot, &w[2], || {
                format!("dim 2 of '{name}' (the {what} size)")
            })?;
        }
    }
    if let Some(b) = ranked(cx, 3, "B", 2)? {
        unify(&mut s.directions, &b[0], || {
            "dim 0 of 'B' (num_directions)".into()
        })?;
        multiple(&mut s.hidden, &b[1], 2 * gates, || "dim 1 of 'B'".into())?;
    }
    if let Some(lens) = ranked(cx, 4, "sequence_lens", 1)? {
        unify(&mut s.batch, &lens[0], || {
            "dim 0 of 'sequence_lens' (the batch size)".into()
        })?;
    }
    let states: &[(usize, &str)] = if lstm {
        &[(5, "initial_h"), (6, "initial_c")]
    } else {
        &[(5, "initial_h")]
    };
    for &(i, name) in states {
        if let Some(h) = ranked(cx, i, name, 3)? {
            let (d, b) = if batch_first { (1, 0) } else { (0, 1) };
            unify(&mut s.directions, &h[d], || {
                format!("dim {d} of '{name}' (num_directions)")
            })?;
            unify(&mut s.batch, &h[b], || {
                format!("dim {b} of '{name}' (the batch size)")
            })?;
            unify(&mut s.hidden, &h[2], || {
                format!("dim 2 of '{name}' (the hidden size)")
            })?;
        }
    }
    if lstm {
        if let Some(p) = ranked(cx, 7, "P", 2)? {
            unify(&mut s.directions, &p[0], || {
                "dim 0 of 'P' (num_directions)".into()
            })?;
            multiple(&mut s.hidden, &p[1], 3, || "dim 1 of 'P'".into())?;
        }
    }

    let Sizes {
        seq,
        batch,
        hidden,
        directions,
        ..
    } = s;
    let y = if batch_first {
        vec![batch.clone(), seq, directions.clone(), hidden.clone()]
    } else {
        vec![seq, directions.clone(), batch.clone(), hidden.clone()]
    };
    let state = if batch_first {
        vec![batch, directions, hidden]
    } else {
        vec![directions, batch, hidden]
    };
    cx.set_tensor(0, elem, y);
    cx.set_tensor(1, elem, state.clone());
    if lstm {
        cx.set_tensor(2, elem, state);
    }
    Ok(())
}

/// The dims of input `i` when it is present and ranked; its rank must be
/// `rank`.
fn ranked(cx: &InferCtx, i: usize, name: &str, rank: usize) -> Result<Option<Vec<Dim>>, Fail> {
    let Some(t) = known_tensor(cx, i)? else {
        return Ok(None);
    };
    match t.dims() {
        Some(d) if d.len() != rank => Err(invalid!(
            "input '{name}' must have rank {rank}, got shape {}",
            fmt_dims(d)
        )),
        d => Ok(d.map(<[Dim]>::to_vec)),
    }
}

/// Unifies `hidden` with `dim / k` for a dim that must be `k * hidden`.
fn multiple(hidden: &mut Dim, dim: &Dim, k: i64, what: impl Fn() -> String) -> Result<(), Fail> {
    match dim {
        Dim::Known(n) if n % k != 0 => Err(invalid!(
            "{} is {n}, which is not {k} * hidden_size",
            what()
        )),
        _ => match hidden {
            Dim::Unknown => {
                *hidden = dim.div_exact(&Dim::Known(k));
                Ok(())
            }
            _ => {
                let expected = hidden.scale(k);
                if dim.definitely_ne(&expected) {
                    return Err(invalid!(
                        "{} is {dim} but must be {k} * hidden_size = {expected}",
                        what()
                    ));
                }
                Ok(())
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{t, Graph};
    use crate::attr::Attr;
    use crate::ir::Value;
    use crate::schema::OpKind::*;

    fn types(g: &Graph, vs: &[Option<Value>]) -> Vec<String> {
        vs.iter()
            .map(|v| v.map_or("-".into(), |v| g.ty(v)))
            .collect()
    }

    #[test]
    fn backend_shapes() {
        let mut g = Graph::new(28);
        let main = g.main();
        // test_lstm_batchwise: layout 1, hidden 7 -> Y [3,1,1,7], Y_h [3,1,7].
        let x = g.input(t("3x1x2xf32"));
        let w = g.input(t("1x28x2xf32"));
        let r = g.input(t("1x28x7xf32"));
        let attrs = vec![("hidden_size", Attr::Int(7)), ("layout", Attr::Int(1))];
        let lstm = g.node(
            main,
            LSTM,
            22,
            &[Some(x), Some(w), Some(r)],
            &[true, true],
            &attrs,
        );
        // test_lstm_bidirectional: no Y; Y_h and Y_c [2,1,3].
        let w2 = g.input(t("2x12x2xf32"));
        let r2 = g.input(t("2x12x3xf32"));
        let attrs = vec![
            ("hidden_size", Attr::Int(3)),
            ("direction", Attr::str("bidirectional")),
        ];
        let bi = g.node(
            main,
            LSTM,
            22,
            &[Some(x), Some(w2), Some(r2)],
            &[false, true, true],
            &attrs,
        );
        // test_gru_seq_length: hidden 5 with a bias -> Y_h [1,3,5].
        let xg = g.input(t("2x3x3xf32"));
        let wg = g.input(t("1x15x3xf32"));
        let rg = g.input(t("1x15x5xf32"));
        let bg = g.input(t("1x30xf32"));
        let gru = g.node(
            main,
            GRU,
            22,
            &[Some(xg), Some(wg), Some(rg), Some(bg)],
            &[false, true],
            &[],
        );
        // test_simple_rnn_batchwise: layout 1, hidden 4.
        let wr = g.input(t("1x4x2xf32"));
        let rr = g.input(t("1x4x4xf32"));
        let rnn = g.node(
            main,
            RNN,
            22,
            &[Some(x), Some(wr), Some(rr)],
            &[true, true],
            &[("layout", Attr::Int(1))],
        );
        g.infer().unwrap();
        assert_eq!(
            types(&g, &lstm),
            ["tensor<3x1x1x7xf32>", "tensor<3x1x7xf32>"]
        );
        assert_eq!(
            types(&g, &bi),
            ["-", "tensor<2x1x3xf32>", "tensor<2x1x3xf32>"]
        );
        assert_eq!(types(&g, &gru), ["-", "tensor<1x3x5xf32>"]);
        assert_eq!(
            types(&g, &rnn),
            ["tensor<3x1x1x4xf32>", "tensor<3x1x4xf32>"]
        );
    }

    #[test]
    fn sizes_come_from_any_input() {
        // No hidden_size: it comes from W (24 = 4 * 6 for an LSTM), the
        // batch from sequence_lens, with symbolic sequence length.
        let mut g = Graph::new(28);
        let x = g.input(t("Sx?x10xf32"));
        let w = g.input(t("1x24x10xf32"));
        let r = g.input(t("*xf32"));
        let b = g.input(t("1x48xf32"));
        let lens = g.input(t("Bxi32"));
        let out = g.op_at(LSTM, 14, &[x, w, r, b, lens], &[], 3);
        g.infer().unwrap();
        let ty: Vec<String> = out.iter().map(|&v| g.ty(v)).collect();
        assert_eq!(
            ty,
            [
                r#"tensor<"S"x1x"B"x6xf32>"#,
                r#"tensor<1x"B"x6xf32>"#,
                r#"tensor<1x"B"x6xf32>"#
            ]
        );
    }

    /// Checks that an LSTM on a `[3, 1, 2]` input with these weights and
    /// attributes fails with `message`.
    fn lstm_fails(w: &str, r: &str, attrs: Vec<(&str, Attr)>, message: &str) {
        let mut g = Graph::new(28);
        let x = g.input(t("3x1x2xf32"));
        let w = g.input(t(w));
        let r = g.input(t(r));
        g.op_at(LSTM, 22, &[x, w, r], &attrs, 2);
        let err = g.infer_err();
        assert!(err.ends_with(message), "{err}");
    }

    #[test]
    fn contradictions() {
        let hidden = vec![("hidden_size", Attr::Int(5))];
        lstm_fails(
            "1x28x2xf32",
            "1x28x7xf32",
            hidden,
            "dim 1 of 'R' is 28 but must be 4 * hidden_size = 20",
        );
        let input = "dim 2 of 'W' (the input size) is 3 but must be 2";
        lstm_fails("1x28x3xf32", "1x28x7xf32", vec![], input);
        let bidirectional = vec![("direction", Attr::str("bidirectional"))];
        let directions = "dim 0 of 'R' (num_directions) is 1 but must be 2";
        lstm_fails("1x28x2xf32", "1x28x7xf32", bidirectional, directions);
        lstm_fails(
            "1x30x2xf32",
            "*xf32",
            vec![],
            "dim 1 of 'W' is 30, which is not 4 * hidden_size",
        );
        let mut g = Graph::new(28);
        let x = g.input(t("3x2xf32"));
        let w = g.input(t("1x4x2xf32"));
        let r = g.input(t("1x4x4xf32"));
        g.op_at(RNN, 22, &[x, w, r], &[], 2);
        assert!(g
            .infer_err()
            .ends_with("input 'X' must have rank 3, got shape [3, 2]"));
    }
}
