//! Host programs: the thin runtime's control flow and non-tensor values
//! (`docs/runtime.md`, "Host programs").
//!
//! A model whose graph holds sequences, optionals, string tensors,
//! operators whose result shapes depend on the data, or run-time `If` and
//! `Loop`, does not compile into one native function. The partitioner
//! (`compiler/program`) cuts it into **compiled segments** — groups of
//! operators over dense fixed-width tensors, each compiled on its own and
//! run through a [`Session`] — and **steps** the runtime takes itself:
//! host operators (`crate::host`), constants, and control flow whose
//! bodies are blocks of further steps.
//!
//! A [`Program`] is data: a flat array of slots (one per value of the
//! graph and of its subgraphs, so that a body reads the values of the
//! scopes around it by their slots) and a [`Block`] of [`Step`]s that read
//! and write them. [`HostProgram`] runs it: each run has its own frame of
//! slots, so that many threads may run one program at once, as they may
//! one [`Session`].
//!
//! A program is also what an AOT library of a host program carries beside
//! its segments' code ([`Program::to_bytes`]): the library's loader reads
//! it back and runs it with the library's segment sessions, each a
//! [`Segment`].

use std::fmt;

use onnx_mlc_dialect::ir::OpRef;
use onnx_mlc_dialect::{ElemType, Type};
use serde::{Deserialize, Serialize};

use crate::abi::{OMLC_ERR_INVALID_ARGUMENT, OMLC_ERR_SHAPE};
use crate::error::{Result, RuntimeError};
use crate::host::{self, HostOp};
use crate::session::Session;
use crate::tensor::Tensor;
use crate::value::{into_tensors, Sequence, Value};

/// An index into a run's frame of values.
pub type Slot = usize;

/// A host program: its inputs, its slots and the block it runs.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Program {
    /// The graph inputs the caller gives, in order.
    pub inputs: Vec<ProgramInput>,
    /// The graph outputs, in order: name and slot.
    pub outputs: Vec<(String, Slot)>,
    /// A name per slot, for printing (`%x`, or `%v17` for unnamed values).
    pub slot_names: Vec<String>,
    /// The steps of the main graph.
    pub body: Block,
    /// The number of compiled segments the steps call (their indices).
    pub num_segments: usize,
}

/// A graph input of a program.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ProgramInput {
    /// The input's name.
    pub name: String,
    /// The slot it fills.
    pub slot: Slot,
    /// Its declared type, which the given value must match in kind.
    pub ty: Type,
}

/// Steps in order, and the slots holding the block's results (a graph's
/// outputs, or a body's).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Block {
    /// The block's arguments (a body's iteration number, condition and
    /// loop-carried values; none for the main graph, whose inputs are the
    /// program's).
    pub args: Vec<Slot>,
    /// The steps, in an order that respects their data dependences.
    pub steps: Vec<Step>,
    /// The slots of the block's results.
    pub outputs: Vec<Slot>,
}

/// One step of a block.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Step {
    /// A constant (an initializer or a `Constant` a host step reads).
    Const {
        /// The value.
        value: Value,
        /// Where it goes.
        output: Slot,
    },
    /// A compiled segment: dense tensors in, dense tensors out.
    Segment {
        /// Which segment (an index into the program's sessions).
        index: usize,
        /// The slots of its inputs, in its graph's input order.
        inputs: Vec<Slot>,
        /// The slots of its outputs, in its graph's output order.
        outputs: Vec<Slot>,
    },
    /// An operator run by `crate::host::run`.
    Host {
        /// The operator.
        op: HostOp,
        /// Its inputs (`None`: an absent optional input).
        inputs: Vec<Option<Slot>>,
        /// Its results (`None`: an output nobody asked for).
        outputs: Vec<Option<Slot>>,
    },
    /// The sizes of an operator's results computed from the values of its
    /// operands (a Pad by computed pads, a Resize to computed sizes): run
    /// before the segment that holds the operator, by `crate::host::sizes`.
    /// Its result is a tensor with no elements, `[0, d1, d2, …]`, whose
    /// shape carries the sizes into that segment, which binds its symbols
    /// from them as it binds every symbol, from its inputs' shapes.
    Sizes {
        /// The operator whose results are measured.
        op: HostOp,
        /// Its inputs (`None`: an absent optional input).
        inputs: Vec<Option<Slot>>,
        /// Which dims the carrier holds, in order: (result, axis).
        dims: Vec<(usize, usize)>,
        /// The carrier's slot.
        output: Slot,
    },
    /// `If`: runs one of two blocks on a boolean condition.
    If {
        /// The operator, for messages.
        op: OpRef,
        /// The condition's slot.
        cond: Slot,
        /// Run when the condition is true.
        then_branch: Block,
        /// Run otherwise.
        else_branch: Block,
        /// Where the chosen block's results go.
        outputs: Vec<Option<Slot>>,
    },
    /// `Loop`: runs `body` while the trip count and the condition allow.
    Loop {
        /// The operator, for messages.
        op: OpRef,
        /// The maximum trip count's slot (`None`: unbounded).
        max_trip: Option<Slot>,
        /// The initial condition's slot (`None`: true).
        cond: Option<Slot>,
        /// The initial loop-carried values.
        initial: Vec<Slot>,
        /// The body: arguments (iteration number, condition, carried
        /// values), outputs (condition, carried values, scan outputs).
        body: Block,
        /// The final carried values, then the stacked scan outputs.
        outputs: Vec<Option<Slot>>,
    },
    /// `SequenceMap`: runs `body` once per item of the first input.
    SequenceMap {
        /// The operator, for messages.
        op: OpRef,
        /// The inputs: sequences are taken item by item, tensors whole.
        inputs: Vec<Slot>,
        /// The body, one argument per input.
        body: Block,
        /// One sequence per body output.
        outputs: Vec<Option<Slot>>,
        /// The item type of each output sequence.
        item_types: Vec<Type>,
    },
}

/// The first bytes of a serialized program: a tag and the format's
/// version, bumped whenever [`Program`] changes shape.
const MAGIC: &[u8; 8] = b"OMLCPRG2";

impl Program {
    /// The program as bytes (a tag, then the program in `postcard`'s
    /// encoding): what an AOT library embeds. Fails only for a program
    /// holding what has no serialized form (a subgraph attribute of a
    /// host operator).
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let body = postcard::to_stdvec(self)
            .map_err(|e| RuntimeError::ModelInfo(format!("cannot serialize the program: {e}")))?;
        Ok([MAGIC.as_slice(), &body].concat())
    }

    /// Reads back what [`Program::to_bytes`] wrote.
    pub fn from_bytes(bytes: &[u8]) -> Result<Program> {
        let body = bytes.strip_prefix(MAGIC.as_slice()).ok_or_else(|| {
            RuntimeError::ModelInfo(
                "the host program was written by another version of onnx-mlc".into(),
            )
        })?;
        postcard::from_bytes(body)
            .map_err(|e| RuntimeError::ModelInfo(format!("cannot read the host program: {e}")))
    }
}

/// A compiled segment a program calls: dense tensors in, dense tensors
/// out. A JIT [`Session`], or a session of one segment of an AOT library.
pub trait Segment: Send + Sync {
    /// Runs the segment on its inputs in graph order; validates them first.
    fn run_refs(&self, inputs: &[&Tensor]) -> Result<Vec<Tensor>>;
}

impl Segment for Session {
    fn run_refs(&self, inputs: &[&Tensor]) -> Result<Vec<Tensor>> {
        Session::run_refs(self, inputs)
    }
}

/// A program with its compiled segments, ready to run from many threads.
pub struct HostProgram {
    program: Program,
    segments: Vec<Box<dyn Segment>>,
}

/// One run's values, a slot each.
type Frame = Vec<Option<Value>>;

impl HostProgram {
    /// Joins a program and the sessions of its segments (in index order).
    pub fn new(program: Program, segments: Vec<Box<dyn Segment>>) -> Result<HostProgram> {
        if segments.len() != program.num_segments {
            return Err(RuntimeError::ModelInfo(format!(
                "the program calls {} segments, {} were given",
                program.num_segments,
                segments.len()
            )));
        }
        Ok(HostProgram { program, segments })
    }

    /// The program.
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The names of the program's outputs, in graph order.
    pub fn output_names(&self) -> Vec<&str> {
        self.program
            .outputs
            .iter()
            .map(|(n, _)| n.as_str())
            .collect()
    }

    /// [`HostProgram::run`] for a program whose inputs and outputs are all
    /// dense tensors.
    pub fn run_tensors(&self, inputs: &[Tensor]) -> Result<Vec<Tensor>> {
        let values = inputs.iter().cloned().map(Value::Tensor).collect();
        into_tensors(self.run(values)?, "outputs in `run` (use `run_values`)")
    }

    /// Runs the program on its inputs in graph order; returns the outputs
    /// in graph order.
    pub fn run(&self, inputs: Vec<Value>) -> Result<Vec<Value>> {
        let p = &self.program;
        if inputs.len() != p.inputs.len() {
            return Err(RuntimeError::InputCount {
                expected: p.inputs.len(),
                got: inputs.len(),
            });
        }
        let mut frame: Frame = vec![None; p.slot_names.len()];
        for (input, value) in p.inputs.iter().zip(inputs) {
            if !kind_matches(&input.ty, &value) {
                return Err(RuntimeError::Host {
                    op: format!("input \"{}\"", input.name),
                    code: OMLC_ERR_INVALID_ARGUMENT,
                    message: format!("expected {}, got a {}", input.ty, value.kind()),
                });
            }
            frame[input.slot] = Some(value);
        }
        self.block(&p.body, &mut frame)?;
        p.outputs.iter().map(|(_, s)| take(&frame, *s)).collect()
    }

    fn block(&self, block: &Block, frame: &mut Frame) -> Result<()> {
        for step in &block.steps {
            self.step(step, frame)?;
        }
        Ok(())
    }

    fn step(&self, step: &Step, frame: &mut Frame) -> Result<()> {
        match step {
            Step::Const { value, output } => frame[*output] = Some(value.clone()),
            Step::Segment {
                index,
                inputs,
                outputs,
            } => {
                let tensors = inputs
                    .iter()
                    .map(|&s| match slot(frame, s)? {
                        Value::Tensor(t) => Ok(t),
                        other => Err(RuntimeError::ModelInfo(format!(
                            "segment {index} was given a {} in slot {s}",
                            other.kind()
                        ))),
                    })
                    .collect::<Result<Vec<&Tensor>>>()?;
                let results = self.segments[*index]
                    .run_refs(&tensors)
                    .map_err(|e| in_segment(e, *index, &tensors))?;
                for (&s, t) in outputs.iter().zip(results) {
                    frame[s] = Some(Value::Tensor(t));
                }
            }
            Step::Host {
                op,
                inputs,
                outputs,
            } => {
                let results = host::run(op, &optional_slots(frame, inputs)?)?;
                store(frame, outputs, results);
            }
            Step::Sizes {
                op,
                inputs,
                dims,
                output,
            } => {
                let carrier = host::sizes(op, &optional_slots(frame, inputs)?, dims)?;
                frame[*output] = Some(Value::Tensor(carrier));
            }
            Step::If {
                op,
                cond,
                then_branch,
                else_branch,
                outputs,
            } => {
                let branch = if flag(op, slot(frame, *cond)?)? {
                    then_branch
                } else {
                    else_branch
                };
                self.block(branch, frame)?;
                let results = take_all(frame, &branch.outputs)?;
                store(frame, outputs, results);
            }
            Step::Loop {
                op,
                max_trip,
                cond,
                initial,
                body,
                outputs,
            } => {
                let results = self.run_loop(op, *max_trip, *cond, initial, body, frame)?;
                store(frame, outputs, results);
            }
            Step::SequenceMap {
                op,
                inputs,
                body,
                outputs,
                item_types,
            } => {
                let results = self.run_map(op, inputs, body, item_types, frame)?;
                store(frame, outputs, results);
            }
        }
        Ok(())
    }

    fn run_loop(
        &self,
        op: &OpRef,
        max_trip: Option<Slot>,
        cond: Option<Slot>,
        initial: &[Slot],
        body: &Block,
        frame: &mut Frame,
    ) -> Result<Vec<Value>> {
        let max_trip = match max_trip {
            Some(s) => Some(int(op, slot(frame, s)?)?),
            None => None,
        };
        let mut go = match cond {
            Some(s) => flag(op, slot(frame, s)?)?,
            None => true,
        };
        let mut carried = take_all(frame, initial)?;
        let num_scans = body.outputs.len() - 1 - carried.len();
        let mut scans: Vec<Vec<Value>> = vec![vec![]; num_scans];
        let mut i = 0i64;
        while go && max_trip.is_none_or(|m| i < m) {
            frame[body.args[0]] = Some(Value::Tensor(Tensor::scalar(i)));
            frame[body.args[1]] = Some(Value::Tensor(Tensor::scalar(go)));
            for (&s, v) in body.args[2..].iter().zip(carried.drain(..)) {
                frame[s] = Some(v);
            }
            self.block(body, frame)?;
            go = flag(op, slot(frame, body.outputs[0])?)?;
            let n = initial.len();
            for &s in &body.outputs[1..1 + n] {
                carried.push(take(frame, s)?);
            }
            for (scan, &s) in scans.iter_mut().zip(&body.outputs[1 + n..]) {
                scan.push(take(frame, s)?);
            }
            i += 1;
        }
        let mut results = carried;
        for scan in scans {
            results.push(stack(op, scan)?);
        }
        Ok(results)
    }

    fn run_map(
        &self,
        op: &OpRef,
        inputs: &[Slot],
        body: &Block,
        item_types: &[Type],
        frame: &mut Frame,
    ) -> Result<Vec<Value>> {
        let values = take_all(frame, inputs)?;
        let n = match &values[0] {
            Value::Sequence(s) => s.items.len(),
            other => {
                return Err(RuntimeError::Host {
                    op: op.to_string(),
                    code: OMLC_ERR_INVALID_ARGUMENT,
                    message: format!("the first input is a {}, not a sequence", other.kind()),
                })
            }
        };
        let mut outs: Vec<Vec<Value>> = vec![vec![]; body.outputs.len()];
        for i in 0..n {
            for (&arg, v) in body.args.iter().zip(&values) {
                frame[arg] = Some(match v {
                    Value::Sequence(s) => {
                        s.items.get(i).cloned().ok_or_else(|| RuntimeError::Host {
                            op: op.to_string(),
                            code: OMLC_ERR_SHAPE,
                            message: format!(
                                "an input sequence has {} items, the first has {n}",
                                s.items.len()
                            ),
                        })?
                    }
                    other => other.clone(),
                });
            }
            self.block(body, frame)?;
            for (out, &s) in outs.iter_mut().zip(&body.outputs) {
                out.push(take(frame, s)?);
            }
        }
        Ok(outs
            .into_iter()
            .zip(item_types)
            .map(|(items, elem)| {
                Value::Sequence(Sequence {
                    elem: elem.clone(),
                    items,
                })
            })
            .collect())
    }
}

/// Whether `value` is of the kind `ty` declares (tensor, sequence, …);
/// shapes are checked where the value is used.
fn kind_matches(ty: &Type, value: &Value) -> bool {
    match (ty, value) {
        (Type::Unknown, _) => true,
        (Type::Tensor(t), Value::Tensor(x)) => t.elem == x.elem(),
        (Type::Tensor(t), Value::Strings(_)) => t.elem == ElemType::String,
        (Type::Sequence(_), Value::Sequence(_)) | (Type::Optional(_), Value::Optional(_)) => true,
        (Type::Map(key, _), Value::Map(m)) => *key == m.key,
        _ => false,
    }
}

fn slot(frame: &Frame, s: Slot) -> Result<&Value> {
    frame[s]
        .as_ref()
        .ok_or_else(|| RuntimeError::ModelInfo(format!("slot {s} is read before it is written")))
}

/// The values of a host step's operands (`None`: an absent optional).
fn optional_slots<'f>(frame: &'f Frame, slots: &[Option<Slot>]) -> Result<Vec<Option<&'f Value>>> {
    slots
        .iter()
        .map(|s| s.map(|s| slot(frame, s)).transpose())
        .collect()
}

fn take(frame: &Frame, s: Slot) -> Result<Value> {
    slot(frame, s).cloned()
}

fn take_all(frame: &Frame, slots: &[Slot]) -> Result<Vec<Value>> {
    slots.iter().map(|&s| take(frame, s)).collect()
}

fn store(frame: &mut Frame, outputs: &[Option<Slot>], results: Vec<Value>) {
    for (s, v) in outputs.iter().zip(results) {
        if let Some(s) = s {
            frame[*s] = Some(v);
        }
    }
}

/// The boolean of a one-element bool tensor (a condition).
fn flag(op: &OpRef, v: &Value) -> Result<bool> {
    match v {
        Value::Tensor(t) if t.elem() == ElemType::Bool && t.numel() == 1 => {
            Ok(t.as_bytes()[0] != 0)
        }
        other => Err(RuntimeError::Host {
            op: op.to_string(),
            code: OMLC_ERR_INVALID_ARGUMENT,
            message: format!("a condition must be one bool, got a {}", describe(other)),
        }),
    }
}

/// The integer of a one-element int64 tensor (a trip count).
fn int(op: &OpRef, v: &Value) -> Result<i64> {
    match v {
        Value::Tensor(t) if t.elem() == ElemType::I64 && t.numel() == 1 => {
            Ok(t.to_vec::<i64>()?[0])
        }
        other => Err(RuntimeError::Host {
            op: op.to_string(),
            code: OMLC_ERR_INVALID_ARGUMENT,
            message: format!("a trip count must be one int64, got a {}", describe(other)),
        }),
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::Tensor(t) => format!("{} tensor of shape {:?}", t.elem(), t.shape()),
        other => other.kind().to_string(),
    }
}

/// A loop's scan output: the values of each iteration stacked along a
/// new first axis (they must agree in type and shape).
fn stack(op: &OpRef, values: Vec<Value>) -> Result<Value> {
    let tensors = values
        .iter()
        .map(|v| match v {
            Value::Tensor(t) => Ok(t),
            other => Err(RuntimeError::Unsupported(format!(
                "{op}: scan outputs of {} values are",
                other.kind()
            ))),
        })
        .collect::<Result<Vec<_>>>()?;
    let Some(first) = tensors.first() else {
        return Err(RuntimeError::Unsupported(format!(
            "{op}: scan outputs of a loop that runs no iteration are"
        )));
    };
    let mut bytes = Vec::with_capacity(first.as_bytes().len() * tensors.len());
    for t in &tensors {
        if t.elem() != first.elem() || t.shape() != first.shape() {
            return Err(RuntimeError::Host {
                op: op.to_string(),
                code: OMLC_ERR_SHAPE,
                message: format!(
                    "scan output of shape {:?} then {:?}: iterations must agree",
                    first.shape(),
                    t.shape()
                ),
            });
        }
        bytes.extend_from_slice(t.as_bytes());
    }
    let mut shape = vec![tensors.len() as i64];
    shape.extend_from_slice(first.shape());
    Ok(Value::Tensor(Tensor::from_bytes(
        first.elem(),
        &shape,
        &bytes,
    )?))
}

impl fmt::Display for Program {
    /// The readable form `onnx-mlc --emit program` prints:
    ///
    /// ```text
    /// program(%X: tensor<2x3xf32>, %pos: tensor<i64>) {
    ///   segment 0 (%X) -> (%Y)
    ///   %s = host SequenceConstruct-11 (%X, %Y)
    ///   %out = host SequenceAt-11 (%s, %pos)
    ///   return %out
    /// }
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inputs: Vec<String> = self
            .inputs
            .iter()
            .map(|i| format!("{}: {}", self.slot_names[i.slot], i.ty))
            .collect();
        writeln!(f, "program({}) {{", inputs.join(", "))?;
        self.write_block(f, &self.body, 1)?;
        let outputs: Vec<&str> = self
            .outputs
            .iter()
            .map(|(_, s)| self.slot_names[*s].as_str())
            .collect();
        writeln!(f, "  return {}", outputs.join(", "))?;
        writeln!(f, "}}")
    }
}

impl Program {
    fn names(&self, slots: &[Slot]) -> String {
        let names: Vec<&str> = slots.iter().map(|&s| self.slot_names[s].as_str()).collect();
        names.join(", ")
    }

    fn optional_names(&self, slots: &[Option<Slot>]) -> String {
        let names: Vec<&str> = slots
            .iter()
            .map(|s| s.map_or("_", |s| self.slot_names[s].as_str()))
            .collect();
        names.join(", ")
    }

    fn write_block(&self, f: &mut fmt::Formatter<'_>, block: &Block, depth: usize) -> fmt::Result {
        let pad = "  ".repeat(depth);
        let op_name = |op: &OpRef| format!("{}-{}", op.kind.name(), op.version);
        for step in &block.steps {
            match step {
                Step::Const { value, output } => writeln!(
                    f,
                    "{pad}{} = const {}",
                    self.slot_names[*output],
                    value.type_of()
                )?,
                Step::Segment {
                    index,
                    inputs,
                    outputs,
                } => writeln!(
                    f,
                    "{pad}{} = segment {index} ({})",
                    self.names(outputs),
                    self.names(inputs)
                )?,
                Step::Host {
                    op,
                    inputs,
                    outputs,
                } => writeln!(
                    f,
                    "{pad}{} = host {} ({})",
                    self.optional_names(outputs),
                    op_name(&op.op),
                    self.optional_names(inputs)
                )?,
                Step::Sizes {
                    op, inputs, output, ..
                } => writeln!(
                    f,
                    "{pad}{} = sizes of {} ({})",
                    self.slot_names[*output],
                    op_name(&op.op),
                    self.optional_names(inputs)
                )?,
                Step::If {
                    op,
                    cond,
                    then_branch,
                    else_branch,
                    outputs,
                } => {
                    writeln!(
                        f,
                        "{pad}{} = {} {} then {{",
                        self.optional_names(outputs),
                        op_name(op),
                        self.slot_names[*cond]
                    )?;
                    self.write_body(f, then_branch, depth)?;
                    writeln!(f, "{pad}}} else {{")?;
                    self.write_body(f, else_branch, depth)?;
                    writeln!(f, "{pad}}}")?;
                }
                Step::Loop {
                    op,
                    max_trip,
                    cond,
                    initial,
                    body,
                    outputs,
                } => {
                    writeln!(
                        f,
                        "{pad}{} = {} ({}, {}, {}) body({}) {{",
                        self.optional_names(outputs),
                        op_name(op),
                        self.optional_names(&[*max_trip]),
                        self.optional_names(&[*cond]),
                        self.names(initial),
                        self.names(&body.args)
                    )?;
                    self.write_body(f, body, depth)?;
                    writeln!(f, "{pad}}}")?;
                }
                Step::SequenceMap {
                    op,
                    inputs,
                    body,
                    outputs,
                    ..
                } => {
                    writeln!(
                        f,
                        "{pad}{} = {} ({}) body({}) {{",
                        self.optional_names(outputs),
                        op_name(op),
                        self.names(inputs),
                        self.names(&body.args)
                    )?;
                    self.write_body(f, body, depth)?;
                    writeln!(f, "{pad}}}")?;
                }
            }
        }
        Ok(())
    }

    fn write_body(&self, f: &mut fmt::Formatter<'_>, block: &Block, depth: usize) -> fmt::Result {
        self.write_block(f, block, depth + 1)?;
        writeln!(
            f,
            "{}yield {}",
            "  ".repeat(depth + 1),
            self.names(&block.outputs)
        )
    }
}

/// A compiled segment's failure, told with the segment (as `--emit program`
/// numbers it) and the shapes it ran on: its code alone does not say which
/// of a program's segments failed.
fn in_segment(e: RuntimeError, index: usize, inputs: &[&Tensor]) -> RuntimeError {
    match e {
        RuntimeError::Model { code, meaning, .. } => RuntimeError::Host {
            op: format!("segment {index} of the host program"),
            code,
            message: format!(
                "{meaning}, on inputs of shapes {:?}",
                inputs.iter().map(|t| t.shape()).collect::<Vec<_>>()
            ),
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use onnx_mlc_dialect::ir::RegionId;
    use onnx_mlc_dialect::{Attr, Attrs, Dim, OpKind, TensorType};

    use super::*;
    use crate::value::{Optional, StringTensor};

    #[test]
    fn a_failing_segment_is_named_with_its_input_shapes() {
        let x = Tensor::from_vec(vec![2, 3], vec![0f32; 6]).unwrap();
        let failed = RuntimeError::Model {
            code: OMLC_ERR_SHAPE,
            name: "OMLC_ERR_SHAPE",
            meaning: "a run-time shape check failed",
        };
        let told = in_segment(failed, 7, &[&x]).to_string();
        assert_eq!(
            told,
            "segment 7 of the host program: a run-time shape check failed, \
             on inputs of shapes [[2, 3]] (OMLC_ERR_SHAPE)"
        );
        let other = in_segment(RuntimeError::Alloc(8), 7, &[&x]);
        assert!(matches!(other, RuntimeError::Alloc(8)));
    }

    fn op(kind: OpKind) -> OpRef {
        OpRef {
            node: "n".into(),
            kind,
            version: 11,
        }
    }

    /// A program using every kind of step, value and attribute that has a
    /// serialized form (attributes after the skipped subgraph variants
    /// included: they must keep their indices).
    fn sample() -> Program {
        let seq_ty = Type::Sequence(Box::new(Type::Tensor(TensorType::with_dims(
            ElemType::F32,
            vec![Dim::param("n").scale(2), Dim::Unknown],
        ))));
        let tensor = Tensor::from_vec(vec![2], vec![1.5f32, -2.0]).unwrap();
        let strings = StringTensor::new(vec![2], vec![b"a".to_vec(), b"\xff".to_vec()]).unwrap();
        let attrs = Attrs(vec![
            ("f".into(), Attr::Float(0.5)),
            ("i".into(), Attr::Int(-3)),
            ("s".into(), Attr::String(b"UPPER".to_vec())),
            ("t".into(), Attr::Tensor(tensor.to_tensor_data())),
            ("ty".into(), Attr::Type(seq_ty.clone())),
            ("ints".into(), Attr::Ints(vec![1, -1])),
            ("strs".into(), Attr::Strings(vec![b"x".to_vec()])),
            ("types".into(), Attr::Types(vec![Type::Unknown])),
        ]);
        let host = Step::Host {
            op: HostOp {
                op: op(OpKind::StringNormalizer),
                attrs,
                results: vec![seq_ty.clone()],
            },
            inputs: vec![Some(0), None],
            outputs: vec![Some(1)],
        };
        let body = Block {
            args: vec![2, 3],
            steps: vec![Step::Segment {
                index: 0,
                inputs: vec![2],
                outputs: vec![4],
            }],
            outputs: vec![3, 4],
        };
        Program {
            inputs: vec![ProgramInput {
                name: "x".into(),
                slot: 0,
                ty: seq_ty.clone(),
            }],
            outputs: vec![("y".into(), 1)],
            slot_names: (0..6).map(|i| format!("%v{i}")).collect(),
            body: Block {
                args: vec![],
                steps: vec![
                    Step::Const {
                        value: Value::Sequence(Sequence {
                            elem: seq_ty.clone(),
                            items: vec![Value::Tensor(tensor), Value::Strings(strings)],
                        }),
                        output: 5,
                    },
                    Step::Const {
                        value: Value::Optional(Optional {
                            elem: seq_ty.clone(),
                            value: None,
                        }),
                        output: 5,
                    },
                    host,
                    Step::Loop {
                        op: op(OpKind::Loop),
                        max_trip: Some(0),
                        cond: None,
                        initial: vec![1],
                        body: body.clone(),
                        outputs: vec![Some(1), None],
                    },
                    Step::If {
                        op: op(OpKind::If),
                        cond: 0,
                        then_branch: body.clone(),
                        else_branch: Block::default(),
                        outputs: vec![None],
                    },
                    Step::SequenceMap {
                        op: op(OpKind::SequenceMap),
                        inputs: vec![0],
                        body,
                        outputs: vec![Some(1)],
                        item_types: vec![seq_ty],
                    },
                ],
                outputs: vec![1],
            },
            num_segments: 1,
        }
    }

    #[test]
    fn programs_round_trip_through_bytes() {
        let program = sample();
        let bytes = program.to_bytes().unwrap();
        let back = Program::from_bytes(&bytes).unwrap();
        assert_eq!(format!("{back:?}"), format!("{program:?}"));
    }

    #[test]
    fn bad_bytes_are_errors() {
        let bytes = sample().to_bytes().unwrap();
        for bad in [
            &bytes[..bytes.len() / 2],
            &bytes[4..],
            b"OMLCPRG1\xff\xff".as_slice(),
        ] {
            assert!(matches!(
                Program::from_bytes(bad),
                Err(RuntimeError::ModelInfo(_))
            ));
        }
    }

    #[test]
    fn subgraph_attributes_have_no_serialized_form() {
        let mut program = sample();
        program.body.steps = vec![Step::Host {
            op: HostOp {
                op: op(OpKind::Scan),
                attrs: Attrs(vec![("body".into(), Attr::Graph(RegionId::from_index(0)))]),
                results: vec![],
            },
            inputs: vec![],
            outputs: vec![],
        }];
        assert!(matches!(
            program.to_bytes(),
            Err(RuntimeError::ModelInfo(_))
        ));
    }
}
