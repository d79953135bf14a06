//! Checks every invariant of a plan against the model, re-deriving what it
//! needs (uses, views, lifetimes, sizes) from the IR on its own, so that a
//! bug in the planner's bookkeeping cannot hide itself.

use std::collections::{HashMap, HashSet};

use onnx_mlc_dialect::ir::ValueDef;
use onnx_mlc_dialect::schema::Family;
use onnx_mlc_dialect::{Ir, Model, OpId, OpKind, Value};
use onnx_mlc_plan::{Plan, Storage, ALIGN};

/// Whether ops of `kind` may be in a kernel without a root, or after one:
/// those that compute each output element from the input elements at the
/// same broadcast position (the op table's elementwise family, and
/// BatchNormalization, a per-channel affine map in inference form).
fn is_elementwise(ir: &Ir, op: OpId) -> bool {
    let data = ir.op(op);
    data.kind.family() == Family::Elementwise
        || data.kind == OpKind::BatchNormalization
        || ir.quantizes_elementwise(data)
}

/// The main graph seen from outside the planner.
struct View<'m> {
    model: &'m Model,
    ops: Vec<OpId>,
    /// Each main-graph value's readers: explicit inputs and subgraph captures.
    readers: HashMap<Value, Vec<OpId>>,
    /// Each op's operands, explicit and captured.
    reads: HashMap<OpId, Vec<Value>>,
    outputs: Vec<Value>,
}

impl<'m> View<'m> {
    fn new(model: &'m Model) -> View<'m> {
        let ir = &model.ir;
        let main = ir.region(model.graph);
        let mut reads: HashMap<OpId, Vec<Value>> = HashMap::new();
        let mut readers: HashMap<Value, Vec<OpId>> = HashMap::new();
        for &op in &main.ops {
            let mut vs: Vec<Value> = ir.op(op).inputs.iter().flatten().copied().collect();
            for region in ir.op(op).attrs.regions() {
                for r in ir.regions_within(region) {
                    for &inner in &ir.region(r).ops {
                        vs.extend(ir.op(inner).inputs.iter().flatten());
                    }
                    vs.extend(ir.region(r).outputs.iter().map(|o| o.value));
                }
            }
            let outer: Vec<Value> = vs.into_iter().filter(|&v| in_main(model, v)).collect();
            for &v in &outer {
                readers.entry(v).or_default().push(op);
            }
            reads.insert(op, outer);
        }
        View {
            model,
            ops: main.ops.clone(),
            readers,
            reads,
            outputs: main.outputs.iter().map(|o| o.value).collect(),
        }
    }

    fn producer(&self, v: Value) -> Option<OpId> {
        match self.model.ir.value(v).def {
            ValueDef::Result(op, _) => Some(op),
            ValueDef::Arg(..) => None,
        }
    }

    fn kind(&self, op: OpId) -> OpKind {
        self.model.ir.op(op).kind
    }

    fn is_view_result(&self, v: Value) -> bool {
        self.producer(v).is_some_and(|p| self.kind(p).is_view())
    }

    /// Follows views to the value they show.
    fn resolve(&self, mut v: Value) -> Value {
        while self.is_view_result(v) {
            v = self.model.ir.op(self.producer(v).unwrap()).inputs[0].unwrap();
        }
        v
    }

    fn values(&self) -> Vec<Value> {
        let ir = &self.model.ir;
        let main = ir.region(self.model.graph);
        let mut out: Vec<Value> = main.args.iter().map(|a| a.value).collect();
        for &op in &self.ops {
            out.extend(ir.op(op).results.iter().flatten());
        }
        out
    }

    fn dims(&self, v: Value) -> Vec<onnx_mlc_dialect::Dim> {
        self.model
            .ir
            .ty(v)
            .as_tensor()
            .unwrap()
            .dims()
            .unwrap()
            .to_vec()
    }
}

fn in_main(model: &Model, v: Value) -> bool {
    match model.ir.value(v).def {
        ValueDef::Arg(r, _) => r == model.graph,
        ValueDef::Result(op, _) => model.ir.op(op).parent == model.graph,
    }
}

fn name(model: &Model, v: Value) -> String {
    model
        .ir
        .value(v)
        .name
        .clone()
        .unwrap_or_else(|| format!("{v:?}"))
}

/// Every invariant of `plan` for `model`; the first violation found.
pub fn check(model: &Model, plan: &Plan) -> Result<(), String> {
    let g = View::new(model);
    let n = |v: Value| name(model, v);
    for v in g.values() {
        if !plan.storage.contains_key(&v) {
            return Err(format!("{} has no storage", n(v)));
        }
    }

    // Kernels partition the ops that generate code; views are listed apart.
    let mut kernel_of: HashMap<OpId, usize> = HashMap::new();
    for (k, kernel) in plan.kernels.iter().enumerate() {
        for &op in &kernel.ops {
            if kernel_of.insert(op, k).is_some() {
                return Err(format!("{op:?} is in two kernels"));
            }
        }
    }
    let views: Vec<OpId> = g
        .ops
        .iter()
        .copied()
        .filter(|&op| g.kind(op).is_view())
        .collect();
    if plan.views != views {
        return Err(format!("views {:?}, expected {views:?}", plan.views));
    }
    for &op in &g.ops {
        let expected = g.kind(op) != OpKind::Constant && !g.kind(op).is_view();
        if kernel_of.contains_key(&op) != expected {
            return Err(format!(
                "{op:?} ({:?}) in a kernel: {}",
                g.kind(op),
                !expected
            ));
        }
    }
    if plan.num_kernels != plan.kernels.len()
        || plan.num_fused_ops != plan.kernels.iter().map(|k| k.ops.len() - 1).sum::<usize>()
    {
        return Err("wrong kernel statistics".into());
    }

    // Topological order: what a kernel's op reads comes from an earlier
    // kernel, or from an earlier op of its own.
    for (k, kernel) in plan.kernels.iter().enumerate() {
        if kernel.root.is_some_and(|r| r != kernel.ops[0]) {
            return Err(format!("kernel {k}: the root is not the first op"));
        }
        for (i, &op) in kernel.ops.iter().enumerate() {
            for &v in &g.reads[&op] {
                let Some(p) = g.producer(g.resolve(v)) else {
                    continue;
                };
                match kernel_of.get(&p) {
                    None => {}
                    Some(&pk) if pk < k => {}
                    Some(&pk) if pk == k && kernel.ops[..i].contains(&p) && g.resolve(v) == v => {}
                    Some(&pk) => return Err(format!("kernel {k} reads {} from kernel {pk}", n(v))),
                }
            }
        }
        check_kernel_shape(&g, plan, k)?;
    }

    // Fused values never leave their kernel; the kernel's inputs and
    // outputs are what crosses its boundary.
    for (k, kernel) in plan.kernels.iter().enumerate() {
        let produced: Vec<Value> = kernel
            .ops
            .iter()
            .flat_map(|&op| model.ir.op(op).results.iter().flatten().copied())
            .collect();
        let mut inputs = vec![];
        for &op in &kernel.ops {
            for &v in &g.reads[&op] {
                if !produced.contains(&v) && !inputs.contains(&v) {
                    inputs.push(v);
                }
            }
        }
        if kernel.inputs != inputs {
            return Err(format!(
                "kernel {k}: inputs {:?}, expected {inputs:?}",
                kernel.inputs
            ));
        }
        let outputs: Vec<Value> = produced
            .iter()
            .copied()
            .filter(|v| plan.storage[v] != Storage::Fused)
            .collect();
        if kernel.outputs != outputs {
            return Err(format!(
                "kernel {k}: outputs {:?}, expected {outputs:?}",
                kernel.outputs
            ));
        }
        for &v in produced
            .iter()
            .filter(|v| plan.storage[v] == Storage::Fused)
        {
            let readers = g.readers.get(&v).cloned().unwrap_or_default();
            if g.outputs.contains(&v)
                || readers.is_empty()
                || readers.iter().any(|r| kernel_of.get(r) != Some(&k))
            {
                return Err(format!("fused {} is read outside kernel {k}", n(v)));
            }
        }
    }

    check_aliases_and_outputs(&g, plan)?;
    check_memory(&g, plan, &kernel_of)
}

/// Root-less kernels are loop nests of elementwise ops of one shape; a
/// root's epilogue is elementwise over the root's result, which no one
/// else reads.
fn check_kernel_shape(g: &View, plan: &Plan, k: usize) -> Result<(), String> {
    let kernel = &plan.kernels[k];
    let ir = &g.model.ir;
    let loop_ops = if kernel.root.is_some() {
        &kernel.ops[1..]
    } else {
        &kernel.ops[..]
    };
    if loop_ops.is_empty() {
        return Ok(());
    }
    let space = g.dims(ir.op(kernel.ops[0]).results[0].unwrap());
    for &op in loop_ops {
        if !is_elementwise(ir, op) {
            return Err(format!("kernel {k}: {:?} in a loop nest", g.kind(op)));
        }
        if g.dims(ir.op(op).results[0].unwrap()) != space {
            return Err(format!(
                "kernel {k}: {:?} has another shape than the kernel",
                g.kind(op)
            ));
        }
    }
    if let (Some(root), false) = (kernel.root, kernel.epilogue().is_empty()) {
        if plan.storage[&ir.op(root).results[0].unwrap()] != Storage::Fused {
            return Err(format!(
                "kernel {k}: the root's result escapes its epilogue"
            ));
        }
    }
    Ok(())
}

fn check_aliases_and_outputs(g: &View, plan: &Plan) -> Result<(), String> {
    let n = |v: Value| name(g.model, v);
    for v in g.values() {
        let is_view = g.is_view_result(v);
        match &plan.storage[&v] {
            Storage::Alias { of } if is_view && *of == g.resolve(v) => {}
            s if is_view => return Err(format!("view {} has storage {s:?}", n(v))),
            Storage::Alias { .. } => return Err(format!("{} is an alias but no view", n(v))),
            Storage::Output(i) if g.resolve(g.outputs[*i]) != v => {
                return Err(format!(
                    "{} is in output {i}'s buffer but output {i} does not show it",
                    n(v)
                ))
            }
            _ => {}
        }
    }
    for (i, &v) in g.outputs.iter().enumerate() {
        let copies = plan.output_copies.iter().filter(|c| c.output == i).count();
        let computed = plan.storage[&g.resolve(v)] == Storage::Output(i);
        if !matches!((computed, copies), (true, 0) | (false, 1)) {
            return Err(format!(
                "output {i} ({}): computed in place {computed}, copies {copies}",
                n(v)
            ));
        }
    }
    for c in &plan.output_copies {
        if g.outputs[c.output] != c.from {
            return Err(format!("copy into output {} from {}", c.output, n(c.from)));
        }
    }
    Ok(())
}

/// Lifetimes, sizes, alignment, and no overlap between buffers that are
/// live at once (in-place pairs excepted, which meet at one kernel).
fn check_memory(g: &View, plan: &Plan, kernel_of: &HashMap<OpId, usize>) -> Result<(), String> {
    let n = |v: Value| name(g.model, v);
    let mut shown: HashMap<Value, Vec<Value>> = HashMap::new();
    for v in g.values() {
        shown.entry(g.resolve(v)).or_default().push(v);
    }
    let mut buffers = vec![];
    let mut naive = 0;
    for v in g.values() {
        let allocated = match &plan.storage[&v] {
            Storage::Workspace { offset, bytes } => Some((*offset, *bytes)),
            Storage::Dynamic { .. } => None,
            _ => {
                if plan.lifetimes.contains_key(&v) {
                    return Err(format!("{} has a lifetime but is not allocated", n(v)));
                }
                continue;
            }
        };
        let first = kernel_of[&g.producer(v).unwrap()];
        let last = shown[&v]
            .iter()
            .flat_map(|w| g.readers.get(w).into_iter().flatten())
            .filter_map(|r| kernel_of.get(r).copied())
            .fold(first, usize::max);
        let live = plan
            .lifetimes
            .get(&v)
            .ok_or_else(|| format!("{} has no lifetime", n(v)))?;
        if (live.first, live.last) != (first, last) {
            return Err(format!(
                "{} lives {}..{}, expected {first}..{last}",
                n(v),
                live.first,
                live.last
            ));
        }
        let Some((offset, bytes)) = allocated else {
            continue;
        };
        let ty = g.model.ir.ty(v).as_tensor().unwrap();
        let expected = ty.elem.packed_bytes(ty.static_numel().unwrap() as usize) as u64;
        if bytes != expected {
            return Err(format!("{} takes {bytes} B, expected {expected}", n(v)));
        }
        if offset % ALIGN != 0 || offset + bytes > plan.workspace_size {
            return Err(format!(
                "{} at {offset}+{bytes} in a {} B workspace",
                n(v),
                plan.workspace_size
            ));
        }
        naive += bytes.div_ceil(ALIGN) * ALIGN;
        buffers.push((v, offset, bytes, first, last));
    }
    if plan.naive_bytes != naive
        || plan.workspace_size > plan.naive_bytes
        || !plan.workspace_size.is_multiple_of(ALIGN)
    {
        return Err(format!(
            "workspace {} B, naive {} B (expected {naive})",
            plan.workspace_size, plan.naive_bytes
        ));
    }
    for (i, &(a, ao, ab, af, al)) in buffers.iter().enumerate() {
        for &(b, bo, bb, bf, bl) in &buffers[i + 1..] {
            let live_together = af <= bl && bf <= al;
            let share_memory = ao < bo + bb && bo < ao + ab;
            if !(live_together && share_memory) {
                continue;
            }
            let in_place = |o: Value, r: Value, of: usize, rl: usize| {
                plan.in_place.get(&o) == Some(&r) && rl == of && ao == bo && ab == bb
            };
            if !in_place(b, a, bf, al) && !in_place(a, b, af, bl) {
                return Err(format!(
                    "{} ({ao}+{ab}, kernels {af}..{al}) and {} ({bo}+{bb}, kernels {bf}..{bl}) overlap",
                    n(a),
                    n(b)
                ));
            }
        }
    }
    for (&out, &over) in &plan.in_place {
        let k = plan.lifetimes[&out].first;
        let kernel = &plan.kernels[k];
        let reads_it = kernel.inputs.iter().any(|&x| g.resolve(x) == over);
        if kernel.root.is_some() || !reads_it || plan.lifetimes[&over].last != k {
            return Err(format!("{} cannot be stored over {}", n(out), n(over)));
        }
        let dims = g.dims(out);
        if kernel
            .inputs
            .iter()
            .any(|&x| g.resolve(x) == over && g.dims(x) != dims)
        {
            return Err(format!(
                "{} is stored over {}, which is read broadcast",
                n(out),
                n(over)
            ));
        }
    }
    let unique: HashSet<&Value> = plan.weights.iter().collect();
    if unique.len() != plan.weights.len() {
        return Err("a weight is listed twice".into());
    }
    for (k, &w) in plan.weights.iter().enumerate() {
        if plan.storage[&w] != Storage::Weight(k) {
            return Err(format!(
                "weight {k} ({}) has storage {:?}",
                n(w),
                plan.storage[&w]
            ));
        }
    }
    Ok(())
}
