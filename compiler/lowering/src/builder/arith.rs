//! `arith` and `math`: constants, the ops whose result has their
//! operands' type, comparisons, selects and conversions.
//!
//! An op the code picks at run time of the compiler (a float or an integer
//! add, a signed or unsigned max) is named with an enum ([`BinaryOp`],
//! [`UnaryOp`], [`CastOp`], [`Predicate`]); each op also has its own
//! method (`e.addf(a, b)`), which is what code that knows the op calls.

pub use melior::dialect::arith::{CmpfPredicate, CmpiPredicate};
use melior::ir::attribute::{FloatAttribute, IntegerAttribute};
use melior::ir::operation::OperationBuilder;
use melior::ir::r#type::{IntegerType, TypeLike};
use melior::ir::{Attribute, Identifier, Type, Value, ValueLike};

use super::attr::fastmath_contract;
use super::Emitter;

/// Defines an enum of ops whose one result has the type of their first
/// operand, the op names, and one [`Emitter`] method per op (and `$generic`
/// taking the enum) with the operands `$arg`s.
macro_rules! same_type_ops {
    (
        $(#[$meta:meta])*
        $enum:ident $args:tt via $generic:ident {
            $($method:ident $variant:ident $name:literal,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        pub enum $enum {
            $(#[doc = concat!("`", $name, "`.")] $variant,)*
        }

        impl $enum {
            /// The op's name.
            pub fn name(self) -> &'static str {
                match self {
                    $($enum::$variant => $name,)*
                }
            }
        }

        same_type_ops!(@methods $enum $args $generic $($method $variant $name)*);
    };
    (@methods $enum:ident $args:tt $generic:ident $($method:ident $variant:ident $name:literal)*) => {
        impl<'c, 'a> Emitter<'c, 'a> {
            same_type_ops!(@generic $generic $enum $args);
            $(same_type_ops!(@method $generic $enum $variant $method $name $args);)*
        }
    };
    (@generic $generic:ident $enum:ident ($($arg:ident),+)) => {
        /// Appends `op` of the operands and returns its result.
        pub fn $generic(&self, op: $enum, $($arg: Value<'c, '_>),+) -> Value<'c, 'a> {
            self.same_type(op.name(), &[$($arg),+], &[])
        }
    };
    (@method $generic:ident $enum:ident $variant:ident $method:ident $name:literal ($($arg:ident),+)) => {
        #[doc = concat!("`", $name, "`.")]
        pub fn $method(&self, $($arg: Value<'c, '_>),+) -> Value<'c, 'a> {
            self.$generic($enum::$variant, $($arg),+)
        }
    };
}

/// Defines [`CastOp`], the conversions of one operand to another type,
/// their names, and one [`Emitter`] method per conversion.
macro_rules! cast_ops {
    ($($method:ident $variant:ident $name:literal,)*) => {
        /// A conversion of one operand to another type.
        #[derive(Copy, Clone, Debug, PartialEq, Eq)]
        pub enum CastOp {
            $(#[doc = concat!("`", $name, "`.")] $variant,)*
        }

        impl CastOp {
            /// The op's name.
            pub fn name(self) -> &'static str {
                match self {
                    $(CastOp::$variant => $name,)*
                }
            }
        }

        impl<'c, 'a> Emitter<'c, 'a> {
            $(
                #[doc = concat!("`", $name, "`.")]
                pub fn $method(&self, x: Value<'c, '_>, ty: Type<'c>) -> Value<'c, 'a> {
                    self.cast(CastOp::$variant, x, ty)
                }
            )*
        }
    };
}

same_type_ops! {
    /// An op of one operand whose result has its type.
    UnaryOp(x) via unary {
        negf NegF "arith.negf",
        absf AbsF "math.absf",
        acos Acos "math.acos",
        acosh Acosh "math.acosh",
        asin Asin "math.asin",
        asinh Asinh "math.asinh",
        atan Atan "math.atan",
        atanh Atanh "math.atanh",
        ceil Ceil "math.ceil",
        cos Cos "math.cos",
        cosh Cosh "math.cosh",
        erf Erf "math.erf",
        exp Exp "math.exp",
        floor Floor "math.floor",
        log Log "math.log",
        log1p Log1p "math.log1p",
        roundeven RoundEven "math.roundeven",
        rsqrt Rsqrt "math.rsqrt",
        sin Sin "math.sin",
        sinh Sinh "math.sinh",
        sqrt Sqrt "math.sqrt",
        tan Tan "math.tan",
        tanh Tanh "math.tanh",
        trunc Trunc "math.trunc",
    }
}

same_type_ops! {
    /// An op of two operands whose result has their type.
    BinaryOp(a, b) via binary {
        addf AddF "arith.addf",
        addi AddI "arith.addi",
        andi AndI "arith.andi",
        ceildivsi CeilDivSI "arith.ceildivsi",
        divf DivF "arith.divf",
        divsi DivSI "arith.divsi",
        divui DivUI "arith.divui",
        floordivsi FloorDivSI "arith.floordivsi",
        maximumf MaximumF "arith.maximumf",
        maxnumf MaxNumF "arith.maxnumf",
        maxsi MaxSI "arith.maxsi",
        maxui MaxUI "arith.maxui",
        minimumf MinimumF "arith.minimumf",
        minnumf MinNumF "arith.minnumf",
        minsi MinSI "arith.minsi",
        minui MinUI "arith.minui",
        mulf MulF "arith.mulf",
        muli MulI "arith.muli",
        ori OrI "arith.ori",
        remf RemF "arith.remf",
        remsi RemSI "arith.remsi",
        remui RemUI "arith.remui",
        shli ShLI "arith.shli",
        shrsi ShRSI "arith.shrsi",
        shrui ShRUI "arith.shrui",
        subf SubF "arith.subf",
        subi SubI "arith.subi",
        xori XOrI "arith.xori",
        copysign CopySign "math.copysign",
        powf PowF "math.powf",
    }
}

cast_ops! {
    bitcast Bitcast "arith.bitcast",
    extf ExtF "arith.extf",
    extsi ExtSI "arith.extsi",
    extui ExtUI "arith.extui",
    fptosi FPToSI "arith.fptosi",
    fptoui FPToUI "arith.fptoui",
    index_cast IndexCast "arith.index_cast",
    sitofp SIToFP "arith.sitofp",
    truncf TruncF "arith.truncf",
    trunci TruncI "arith.trunci",
    uitofp UIToFP "arith.uitofp",
}

/// A comparison: `arith.cmpi` or `arith.cmpf` with its predicate.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Predicate {
    Int(CmpiPredicate),
    Float(CmpfPredicate),
}

impl<'c, 'a> Emitter<'c, 'a> {
    /// `arith.constant` of a float type.
    pub fn f(&self, ty: Type<'c>, value: f64) -> Value<'c, 'a> {
        self.constant(ty, FloatAttribute::new(self.cx, ty, value).into())
    }

    /// `arith.constant` of an integer type.
    pub fn i(&self, ty: Type<'c>, value: i64) -> Value<'c, 'a> {
        self.constant(ty, IntegerAttribute::new(ty, value).into())
    }

    /// `|x|` of a signed integer scalar, as `max(x, 0 - x)` (the most
    /// negative value stays itself, as in two's complement): `math.absi`
    /// has no LLVM lowering on the 2-D vectors vectorized kernels make.
    pub fn absi(&self, x: Value<'c, '_>) -> Value<'c, 'a> {
        let zero = self.i(x.r#type(), 0);
        self.maxsi(x, self.subi(zero, x))
    }

    /// The product of the `index` values `sizes` (1 for none).
    pub fn product(&self, sizes: &[Value<'c, 'a>]) -> Value<'c, 'a> {
        match sizes.split_first() {
            Some((&first, rest)) => rest.iter().fold(first, |acc, &d| self.muli(acc, d)),
            None => self.index(1),
        }
    }

    /// The indices, along dims of `sizes` (`index` values), of the
    /// row-major position `flat`.
    pub fn delinearize(&self, flat: Value<'c, '_>, sizes: &[Value<'c, '_>]) -> Vec<Value<'c, 'a>> {
        let mut out = vec![];
        let mut rest = None;
        for (i, &size) in sizes.iter().enumerate().rev() {
            let at: Value<'c, '_> = rest.unwrap_or(flat);
            if i == 0 {
                out.push(self.addi(at, self.index(0)));
            } else {
                out.push(self.remui(at, size));
                rest = Some(self.divui(at, size));
            }
        }
        out.reverse();
        out
    }

    /// `arith.constant … : index`.
    pub fn index(&self, value: i64) -> Value<'c, 'a> {
        self.i(Type::index(self.cx), value)
    }

    /// The `iN` type.
    pub fn int_type(&self, bits: u32) -> Type<'c> {
        IntegerType::new(self.cx, bits).into()
    }

    fn constant(&self, ty: Type<'c>, value: Attribute<'c>) -> Value<'c, 'a> {
        self.value(
            OperationBuilder::new("arith.constant", self.loc)
                .add_results(&[ty])
                .add_attributes(&[(Identifier::new(self.cx, "value"), value)])
                .build()
                .expect("a well-formed arith.constant"),
        )
    }

    /// Op `name` of `operands`, whose one result has the first operand's
    /// type, with attributes `attrs`.
    fn same_type(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        attrs: &[(Identifier<'c>, Attribute<'c>)],
    ) -> Value<'c, 'a> {
        self.value(
            OperationBuilder::new(name, self.loc)
                .add_operands(operands)
                .add_results(&[operands[0].r#type()])
                .add_attributes(attrs)
                .build()
                .unwrap_or_else(|e| panic!("building {name}: {e}")),
        )
    }

    /// `acc + a · b`, the step of a product's reduction. Float steps carry
    /// the `contract` fast-math flag, so that LLVM fuses them into one FMA
    /// wherever they stay scalar (the remainder of a register tile): the
    /// vectorized tiles compute `vector.fma`, and every element of a
    /// product then rounds the same way whichever code computes it.
    pub fn multiply_add(
        &self,
        acc: Value<'c, '_>,
        a: Value<'c, '_>,
        b: Value<'c, '_>,
    ) -> Value<'c, 'a> {
        if acc.r#type().is_integer() {
            let prod = self.muli(a, b);
            return self.addi(acc, prod);
        }
        let contract = [(
            Identifier::new(self.cx, "fastmath"),
            fastmath_contract(self.cx),
        )];
        let prod = self.same_type(BinaryOp::MulF.name(), &[a, b], &contract);
        self.same_type(BinaryOp::AddF.name(), &[acc, prod], &contract)
    }

    /// `math.fma`: `a · b + c`.
    pub fn fma(&self, a: Value<'c, '_>, b: Value<'c, '_>, c: Value<'c, '_>) -> Value<'c, 'a> {
        self.same_type("math.fma", &[a, b, c], &[])
    }

    /// `arith.cmpi`.
    pub fn cmpi(
        &self,
        predicate: CmpiPredicate,
        a: Value<'c, '_>,
        b: Value<'c, '_>,
    ) -> Value<'c, 'a> {
        self.compare(Predicate::Int(predicate), a, b)
    }

    /// `arith.cmpf`.
    pub fn cmpf(
        &self,
        predicate: CmpfPredicate,
        a: Value<'c, '_>,
        b: Value<'c, '_>,
    ) -> Value<'c, 'a> {
        self.compare(Predicate::Float(predicate), a, b)
    }

    /// `arith.cmpi` or `arith.cmpf` with `predicate`: an `i1`.
    pub fn compare(
        &self,
        predicate: Predicate,
        a: Value<'c, '_>,
        b: Value<'c, '_>,
    ) -> Value<'c, 'a> {
        self.compare_as(predicate, a, b, self.int_type(1))
    }

    /// `arith.cmpi` of two 1-D vectors of `lanes` lanes, lane by lane.
    pub fn cmpi_lanes(
        &self,
        predicate: CmpiPredicate,
        a: Value<'c, '_>,
        b: Value<'c, '_>,
        lanes: i64,
    ) -> Value<'c, 'a> {
        let mask = super::vector::vector_type(&[lanes], self.int_type(1));
        self.compare_as(Predicate::Int(predicate), a, b, mask)
    }

    /// A comparison whose result is of type `result` (`i1`, or a vector
    /// of them of the operands' shape).
    fn compare_as(
        &self,
        predicate: Predicate,
        a: Value<'c, '_>,
        b: Value<'c, '_>,
        result: Type<'c>,
    ) -> Value<'c, 'a> {
        let (name, number) = match predicate {
            Predicate::Int(p) => ("arith.cmpi", p as i64),
            Predicate::Float(p) => ("arith.cmpf", p as i64),
        };
        let number = IntegerAttribute::new(self.int_type(64), number).into();
        self.value(
            OperationBuilder::new(name, self.loc)
                .add_operands(&[a, b])
                .add_results(&[result])
                .add_attributes(&[(Identifier::new(self.cx, "predicate"), number)])
                .build()
                .unwrap_or_else(|e| panic!("building {name}: {e}")),
        )
    }

    /// `arith.select`.
    pub fn select(&self, c: Value<'c, '_>, a: Value<'c, '_>, b: Value<'c, '_>) -> Value<'c, 'a> {
        self.value(
            OperationBuilder::new("arith.select", self.loc)
                .add_operands(&[c, a, b])
                .add_results(&[a.r#type()])
                .build()
                .expect("a well-formed arith.select"),
        )
    }

    /// Conversion `op` of `x` to `ty`.
    pub fn cast(&self, op: CastOp, x: Value<'c, '_>, ty: Type<'c>) -> Value<'c, 'a> {
        self.value(
            OperationBuilder::new(op.name(), self.loc)
                .add_operands(&[x])
                .add_results(&[ty])
                .build()
                .unwrap_or_else(|e| panic!("building {}: {e}", op.name())),
        )
    }
}
