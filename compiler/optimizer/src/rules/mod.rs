//! Rewrite rules, grouped by topic, one file per [`RuleSet`].
//!
//! A rule is one line: a name, a left-hand side [`Pattern`], an optional
//! list of guards (conditions on the match: types, constants), and a
//! right-hand side — a pattern, or for rules that compute new constants or
//! attributes a function that builds the replacement. Each rule carries its
//! identity as a comment. What makes a good rule, and how to add one, is in
//! `docs/rewrite-rules.md`.

pub mod algebraic;
pub mod attention;
pub mod canonical;
pub mod fusion;
pub mod layout;
pub mod multi;
pub mod pointwise;
pub mod quant;
mod util;

use std::fmt;
use std::sync::Arc;

use egg::Id;

use crate::analysis::OGraph;
use crate::pattern::{Match, Pattern};

pub use util::Builder;

/// The topics rules are grouped by (`--rules=<set,…>`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleSet {
    /// Identities and zeros, transpose/reshape/cast chains, neutral
    /// broadcasts, distributivity where it saves work.
    Algebraic,
    /// Exporter idioms to the ops they spell (GELU, LayerNorm, SiLU, …).
    Canonical,
    /// Producer + epilogue into one op; BatchNormalization and affine
    /// ops folded into Conv weights.
    Fusion,
    /// Softmax attention into one `omlc.FusedAttention` op.
    Attention,
    /// Parallel ops sharing an input merged into one (TENSAT's multi-
    /// pattern rules).
    Multi,
    /// Transpose sinking through elementwise ops and reductions.
    Layout,
    /// Pointwise (1×1) convolutions as matrix products.
    Pointwise,
    /// Integer products onto the 8-bit dot-product kernels (constant
    /// weights packed at compile time).
    Quant,
}

impl RuleSet {
    /// Every rule set.
    pub const ALL: [RuleSet; 8] = [
        RuleSet::Algebraic,
        RuleSet::Canonical,
        RuleSet::Fusion,
        RuleSet::Attention,
        RuleSet::Multi,
        RuleSet::Layout,
        RuleSet::Pointwise,
        RuleSet::Quant,
    ];

    /// The name used by `--rules`.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Algebraic => "algebraic",
            RuleSet::Canonical => "canonical",
            RuleSet::Fusion => "fusion",
            RuleSet::Attention => "attention",
            RuleSet::Multi => "multi",
            RuleSet::Layout => "layout",
            RuleSet::Pointwise => "pointwise",
            RuleSet::Quant => "quant",
        }
    }

    /// The set called `name`.
    pub fn from_name(name: &str) -> Option<RuleSet> {
        RuleSet::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The rules of this set.
    pub fn rules(self) -> Vec<Rule> {
        let rules = match self {
            RuleSet::Algebraic => algebraic::rules(),
            RuleSet::Canonical => canonical::rules(),
            RuleSet::Fusion => fusion::rules(),
            RuleSet::Attention => attention::rules(),
            RuleSet::Multi => multi::rules(),
            RuleSet::Layout => layout::rules(),
            RuleSet::Pointwise => pointwise::rules(),
            RuleSet::Quant => quant::rules(),
        };
        rules.into_iter().map(|r| Rule { set: self, ..r }).collect()
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A condition on a match.
pub type Guard = Arc<dyn Fn(&OGraph, &Match) -> bool + Send + Sync>;

/// Builds a rule's replacement: returns the class to merge with the
/// match's root, or `None` to not apply.
pub type BuildFn = Arc<dyn Fn(&mut Builder, &Match) -> Option<Id> + Send + Sync>;

/// Finds a rule's matches without a pattern (multi-root rules).
pub type SearchFn = fn(&OGraph, usize) -> Vec<Match>;

/// Where a rule's matches come from.
#[derive(Clone)]
pub enum Search {
    /// A pattern.
    Pattern(Pattern),
    /// A search written in Rust.
    Custom(SearchFn),
}

/// What a rule puts in place of a match.
#[derive(Clone)]
pub enum Rhs {
    /// A pattern instantiated with the match.
    Pattern(Pattern),
    /// A function building the replacement.
    Build(BuildFn),
}

/// A rewrite rule.
#[derive(Clone)]
pub struct Rule {
    /// Unique name (kebab-case), as reported by `--opt-report`.
    pub name: &'static str,
    /// The set the rule belongs to.
    pub set: RuleSet,
    /// The left-hand side.
    pub search: Search,
    /// Conditions on a match.
    pub guards: Vec<Guard>,
    /// The right-hand side.
    pub rhs: Rhs,
}

impl fmt::Debug for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rule({}, {})", self.set, self.name)
    }
}

impl Rule {
    /// A rule from pattern to pattern (its set is filled in by
    /// [`RuleSet::rules`]). Panics on a malformed pattern or a right-hand
    /// side using names the left does not bind: rules are static, and the
    /// tests construct every one.
    pub fn rewrite(name: &'static str, lhs: &str, rhs: &str, guards: Vec<Guard>) -> Rule {
        let lhs = parse(name, lhs);
        let rhs = parse(name, rhs);
        assert!(
            rhs.is_buildable(),
            "rule {name}: the right-hand side must name one op per node, no literals"
        );
        let bound = lhs.bound_names();
        for used in rhs.used_names() {
            assert!(
                bound.contains(&used),
                "rule {name}: {used} is not bound by the left-hand side"
            );
        }
        Rule {
            name,
            set: RuleSet::Algebraic,
            search: Search::Pattern(lhs),
            guards,
            rhs: Rhs::Pattern(rhs),
        }
    }

    /// A rule whose replacement is built by a function.
    pub fn build<F>(name: &'static str, lhs: &str, f: F, guards: Vec<Guard>) -> Rule
    where
        F: Fn(&mut Builder, &Match) -> Option<Id> + Send + Sync + 'static,
    {
        let lhs = parse(name, lhs);
        Rule {
            name,
            set: RuleSet::Algebraic,
            search: Search::Pattern(lhs),
            guards,
            rhs: Rhs::Build(Arc::new(f)),
        }
    }

    /// A rule with a search written in Rust.
    pub fn custom<F>(name: &'static str, search: SearchFn, f: F) -> Rule
    where
        F: Fn(&mut Builder, &Match) -> Option<Id> + Send + Sync + 'static,
    {
        Rule {
            name,
            set: RuleSet::Algebraic,
            search: Search::Custom(search),
            guards: vec![],
            rhs: Rhs::Build(Arc::new(f)),
        }
    }

    /// The matches of the left-hand side (guards not yet checked).
    pub fn search(&self, egraph: &OGraph, limit: usize) -> Vec<Match> {
        match &self.search {
            Search::Pattern(p) => p.search(egraph, limit),
            Search::Custom(f) => f(egraph, limit),
        }
    }

    /// Checks the guards and applies the rule to one match; true when the
    /// e-graph changed.
    pub fn apply(&self, egraph: &mut OGraph, m: &Match) -> bool {
        if !self.guards.iter().all(|g| g(egraph, m)) {
            return false;
        }
        let mut b = Builder::new(egraph);
        let id = match &self.rhs {
            Rhs::Pattern(p) => p.instantiate(b.egraph(), m),
            Rhs::Build(f) => f(&mut b, m),
        };
        let mut changed = b.changed();
        if let Some(id) = id {
            changed |= egraph.union(m.root, id);
        }
        changed
    }
}

fn parse(rule: &str, text: &str) -> Pattern {
    Pattern::parse(text).unwrap_or_else(|e| panic!("rule {rule}: {e}"))
}

/// A one-line rule: `rw!("name"; "lhs" => "rhs")`, with guards after
/// `; if`, or a builder function as right-hand side.
#[macro_export]
macro_rules! rw {
    ($name:literal; $lhs:literal => $rhs:literal $(; if $($g:expr),+)?) => {
        $crate::rules::Rule::rewrite($name, $lhs, $rhs, vec![$($($g),+)?])
    };
    ($name:literal; $lhs:literal => $f:expr $(; if $($g:expr),+)?) => {
        $crate::rules::Rule::build($name, $lhs, $f, vec![$($($g),+)?])
    };
}

/// Every rule of the given sets.
pub fn rules_of(sets: &[RuleSet]) -> Vec<Rule> {
    sets.iter().flat_map(|s| s.rules()).collect()
}
