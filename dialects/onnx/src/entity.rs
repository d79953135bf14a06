//! The IR's entity handles: `u32` indices into the typed tables of an
//! [`Ir`](crate::ir::Ir) (values, ops, regions). Attributes name regions
//! by them, so they sit below both the IR and the attributes.

use std::fmt;

macro_rules! entity {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(u32);

        impl $name {
            /// The handle's index in its table.
            pub fn index(self) -> usize {
                self.0 as usize
            }

            /// The handle for table index `i`.
            pub fn from_index(i: usize) -> Self {
                $name(u32::try_from(i).expect("fewer than 2^32 entities"))
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

entity!(
    /// An SSA value: a region argument or an op result.
    Value,
    "v"
);
entity!(
    /// An op (an ONNX node).
    OpId,
    "op"
);
entity!(
    /// A region (an ONNX graph).
    RegionId,
    "r"
);
