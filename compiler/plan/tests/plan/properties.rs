//! The property test: random well-formed graphs — elementwise chains with
//! broadcasting, MatMuls, reductions, softmax, transposes, views, splits
//! and concats, `If`s reading outer values, dead values, outputs that are
//! inputs, weights, views or repeated — planned with and without in-place
//! reuse, and every plan checked by `check`.

use onnx_mlc_plan::{plan, PlanOptions};
use onnx_mlc_tests::plan_check::check;

use crate::examples::{constant, model};

/// SplitMix64: a small, seedable generator (the test needs no crate).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// The shapes values take: A = 4x8, B = 4x1, C = 8x4, D = 8, E = 8x8,
/// S = 2x8 (the halves of an A), G = 1x4x8 (an A broadcast: same size,
/// other shape).
const SHAPES: [&str; 7] = ["4x8", "4x1", "8x4", "8", "8x8", "2x8", "1x4x8"];
const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
const D: usize = 3;
const E: usize = 4;
const S: usize = 5;
const G: usize = 6;

/// A graph being generated: its text, and the values so far with their
/// shape and text-form type (results are `!onnx.unknown` until inference).
struct Gen {
    rng: Rng,
    body: String,
    values: Vec<(String, usize, String)>,
    ops: usize,
}

impl Gen {
    fn ty(shape: usize) -> String {
        format!("tensor<{}xf32>", SHAPES[shape])
    }

    fn of_shape(&mut self, shape: usize) -> Option<usize> {
        let found: Vec<usize> = (0..self.values.len())
            .filter(|&i| self.values[i].1 == shape)
            .collect();
        (!found.is_empty()).then(|| self.rng.pick(&found))
    }

    fn any(&mut self) -> usize {
        self.rng.below(self.values.len())
    }

    /// Emits `%vN = "onnx.<op>"(operands) {attrs} : (...) -> (...)` with
    /// `results` new values of the given shapes.
    fn emit(&mut self, op: &str, operands: &[usize], attrs: &str, results: &[usize]) {
        let names: Vec<String> = (0..results.len())
            .map(|i| format!("v{}_{i}", self.ops))
            .collect();
        let lhs: Vec<String> = names.iter().map(|n| format!("%{n}")).collect();
        let args: Vec<String> = operands
            .iter()
            .map(|&i| format!("%{}", self.values[i].0))
            .collect();
        let tys: Vec<String> = operands.iter().map(|&i| self.values[i].2.clone()).collect();
        let outs = vec!["!onnx.unknown"; results.len()].join(", ");
        self.body += &format!(
            "  {} = \"onnx.{op}\"({}) {attrs} : ({}) -> ({outs}) loc(\"n{}\")\n",
            lhs.join(", "),
            args.join(", "),
            tys.join(", "),
            self.ops,
        );
        for (name, &shape) in names.into_iter().zip(results) {
            self.values.push((name, shape, "!onnx.unknown".into()));
        }
        self.ops += 1;
    }

    fn constant(&mut self, shape: usize) -> usize {
        let name = format!("w{}", self.ops);
        self.body += &constant(&name, "0.5", &Gen::ty(shape));
        self.values.push((name, shape, Gen::ty(shape)));
        self.ops += 1;
        self.values.len() - 1
    }

    fn int_constant(&mut self, values: &str, len: usize) -> usize {
        let name = format!("i{}", self.ops);
        let ty = format!("tensor<{len}xi64>");
        self.body += &format!(
            "  %{name} = \"onnx.Constant\"() {{value = dense<{values}> : {ty}}} : () -> {ty}\n"
        );
        self.values.push((name, usize::MAX, ty));
        self.ops += 1;
        self.values.len() - 1
    }

    /// A tensor value (not an integer constant) to operate on.
    fn operand(&mut self) -> usize {
        loop {
            let i = self.any();
            if self.values[i].1 != usize::MAX {
                return i;
            }
        }
    }

    fn step(&mut self) {
        let unary = ["Relu", "Sigmoid", "Neg", "Exp", "Tanh"];
        let binary = ["Add", "Mul", "Sub"];
        match self.rng.below(14) {
            0..=2 => {
                let x = self.operand();
                let op = self.rng.pick(&unary);
                let shape = self.values[x].1;
                self.emit(op, &[x], "", &[shape]);
            }
            3..=5 => {
                let a = self.operand();
                let shape = self.values[a].1;
                let (b, result) = match (shape, self.rng.below(3)) {
                    (A, 0) => (self.of_shape(B).or_else(|| self.of_shape(D)), A),
                    (A, 1) => (Some(self.constant(D)), A),
                    (A, 2) => (self.of_shape(G), G),
                    (G, 0) => (self.of_shape(A), G),
                    _ => (None, shape),
                };
                let (b, result) = match b {
                    Some(b) => (b, result),
                    None => (self.of_shape(shape).expect("a itself has the shape"), shape),
                };
                let op = self.rng.pick(&binary);
                let operands = if self.rng.below(2) == 0 {
                    [a, b]
                } else {
                    [b, a]
                };
                self.emit(op, &operands, "", &[result]);
            }
            6 => match self.of_shape(A) {
                Some(a) if self.rng.below(2) == 0 => {
                    let w = self.constant(E);
                    self.emit("MatMul", &[a, w], "", &[A]);
                }
                Some(a) => match self.of_shape(C) {
                    Some(c) => self.emit("MatMul", &[c, a], "", &[E]),
                    None => self.emit("Transpose", &[a], "{perm = [1, 0]}", &[C]),
                },
                None => {}
            },
            7 => {
                if let Some(a) = self.of_shape(A) {
                    self.emit("ReduceMean", &[a], "{axes = [1]}", &[B]);
                }
            }
            8 => {
                let x = self.operand();
                let shape = self.values[x].1;
                self.emit("Softmax", &[x], "", &[shape]);
            }
            9 => {
                let x = self.operand();
                match self.values[x].1 {
                    A => self.emit("Transpose", &[x], "{perm = [1, 0]}", &[C]),
                    C => self.emit("Transpose", &[x], "{perm = [1, 0]}", &[A]),
                    shape => self.emit("Identity", &[x], "", &[shape]),
                }
            }
            10 => {
                let x = self.operand();
                match self.values[x].1 {
                    A if self.rng.below(2) == 0 => {
                        let axes = self.int_constant("0", 1);
                        self.emit("Unsqueeze", &[x, axes], "", &[G]);
                    }
                    A => {
                        let to = self.int_constant("[8, 4]", 2);
                        self.emit("Reshape", &[x, to], "", &[C]);
                    }
                    C => {
                        let to = self.int_constant("[4, 8]", 2);
                        self.emit("Reshape", &[x, to], "", &[A]);
                    }
                    E => self.emit("Flatten", &[x], "", &[E]),
                    shape => self.emit("Identity", &[x], "", &[shape]),
                }
            }
            11 => {
                if let Some(a) = self.of_shape(A) {
                    let split = self.int_constant("2", 2);
                    self.emit("Split", &[a, split], "{axis = 0}", &[S, S]);
                }
            }
            12 => {
                if let (Some(x), Some(y)) = (self.of_shape(S), self.of_shape(S)) {
                    self.emit("Concat", &[x, y], "{axis = 0}", &[A]);
                }
            }
            _ => self.if_op(),
        }
    }

    /// An `If` on the `cond` input whose branches return values of the
    /// main graph: a `Neg` of one, or another as is.
    fn if_op(&mut self) {
        let x = self.operand();
        let shape = self.values[x].1;
        let y = self.of_shape(shape).expect("x has the shape");
        let (xn, xt) = (self.values[x].0.clone(), self.values[x].2.clone());
        let (yn, yt) = (self.values[y].0.clone(), self.values[y].2.clone());
        let name = format!("v{}_0", self.ops);
        self.body += &format!(
            "  %{name} = \"onnx.If\"(%cond) {{then_branch = onnx.graph \"then\"() -> (\"o\": !onnx.unknown) {{\n    \
             %inner{n} = \"onnx.Neg\"(%{xn}) : ({xt}) -> !onnx.unknown\n    onnx.return %inner{n}\n  }}, \
             else_branch = onnx.graph \"else\"() -> (\"o\": {yt}) {{\n    onnx.return %{yn}\n  }}}} \
             : (tensor<i1>) -> !onnx.unknown loc(\"n{n}\")\n",
            n = self.ops,
        );
        self.values.push((name, shape, "!onnx.unknown".into()));
        self.ops += 1;
    }
}

/// A random graph in the text form.
fn random_graph(seed: u64) -> String {
    let mut g = Gen {
        rng: Rng(seed),
        body: String::new(),
        values: vec![],
        ops: 0,
    };
    let inputs = [("x", A), ("y", B), ("z", C)];
    for (name, shape) in inputs {
        g.values.push((name.into(), shape, Gen::ty(shape)));
    }
    let steps = 3 + g.rng.below(30);
    for _ in 0..steps {
        g.step();
    }
    let outputs: Vec<usize> = (0..1 + g.rng.below(3)).map(|_| g.operand()).collect();
    let sig: Vec<String> = outputs
        .iter()
        .enumerate()
        .map(|(i, &v)| format!("\"out{i}\": {}", g.values[v].2))
        .collect();
    let ret: Vec<String> = outputs
        .iter()
        .map(|&i| format!("%{}", g.values[i].0))
        .collect();
    let args: Vec<String> = inputs
        .iter()
        .map(|(n, s)| format!("%{n}: {}", Gen::ty(*s)))
        .collect();
    format!(
        "onnx.graph \"random\"({}, %cond: tensor<i1>) -> ({}) {{\n{}  onnx.return {}\n}}\n",
        args.join(", "),
        sig.join(", "),
        g.body,
        ret.join(", ")
    )
}

#[test]
fn random_graphs_get_sound_plans() {
    let (mut kernels, mut fused, mut reused) = (0, 0, 0);
    for seed in 0..400 {
        let text = random_graph(seed);
        let m = model(&text);
        for in_place in [true, false] {
            let plan = plan(&m, &PlanOptions { in_place })
                .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
            if let Err(e) = check(&m, &plan) {
                panic!(
                    "seed {seed}, in place {in_place}: {e}\n{text}\n{}",
                    plan.dump(&m)
                );
            }
            if in_place {
                kernels += plan.num_kernels;
                fused += plan.num_fused_ops;
                reused += plan.in_place.len();
            }
        }
    }
    // The generator must exercise what it is for.
    assert!(
        fused > 400 && reused > 20 && kernels > 2000,
        "{kernels} kernels, {fused} fused, {reused} in place"
    );
}
