//! A small FileCheck: checks that a text (a printed model, say) matches
//! the `CHECK` directives written in a test file.
//!
//! It implements the part of LLVM FileCheck that text-IR tests need, with
//! the same meaning:
//!
//! - `CHECK: p` — `p` occurs at or after the end of the previous match.
//! - `CHECK-NEXT: p` — the next match of `p` is on the line after the
//!   previous match.
//! - `CHECK-SAME: p` — the next match of `p` is on the line of the previous
//!   match.
//! - `CHECK-NOT: p` — `p` does not occur between the previous match and the
//!   next positive match (or the end of the block).
//! - `CHECK-EMPTY:` — the line after the previous match is empty.
//! - `CHECK-LABEL: p` — matched first, in order; splits the input into
//!   blocks so that the other directives of a block only search it (and a
//!   failure in one block does not hide failures in the others).
//!
//! Patterns are literal text with `{{regex}}` blocks (the `regex` crate's
//! syntax; the block ends at the first `}}`). Matching ignores leading and
//! trailing whitespace of a pattern, and a run of spaces or tabs in a
//! pattern matches any non-empty run in the input, as FileCheck's default
//! whitespace canonicalization does. A match never spans lines. Unlike
//! FileCheck there are no `[[VAR]]` captures: `[[` is literal, which suits
//! nested tensor literals such as `dense<[[1.0]]>`.

use regex::Regex;

/// The kind of a directive.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Check,
    Next,
    Same,
    Not,
    Label,
    Empty,
}

impl Kind {
    /// The directive as written (`CHECK-NEXT`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Check => "CHECK",
            Kind::Next => "CHECK-NEXT",
            Kind::Same => "CHECK-SAME",
            Kind::Not => "CHECK-NOT",
            Kind::Label => "CHECK-LABEL",
            Kind::Empty => "CHECK-EMPTY",
        }
    }
}

/// One directive of a check file.
#[derive(Clone, Debug)]
pub struct Check {
    pub kind: Kind,
    /// The pattern as written (trimmed).
    pub pattern: String,
    /// 1-based line of the directive in the check file.
    pub line: usize,
    regex: Regex,
}

impl Check {
    fn describe(&self) -> String {
        format!("line {}: {}: {}", self.line, self.kind.name(), self.pattern)
    }
}

/// Whether a line of a test file is a `CHECK` directive (used to strip
/// them when blessing).
pub fn is_directive(line: &str) -> bool {
    find_directive(line).is_some()
}

/// Finds `CHECK…:` in a line: the directive's kind (or the unknown
/// suffix) and the text after the colon.
fn find_directive(line: &str) -> Option<(Result<Kind, &str>, &str)> {
    let mut from = 0;
    while let Some(i) = line[from..].find("CHECK").map(|i| i + from) {
        from = i + 5;
        let boundary = line[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric() && c != '_' && c != '-');
        if !boundary {
            continue;
        }
        let rest = &line[i + 5..];
        if let Some(after) = rest.strip_prefix(':') {
            return Some((Ok(Kind::Check), after));
        }
        let Some(suffixed) = rest.strip_prefix('-') else {
            continue;
        };
        let n = suffixed
            .find(|c: char| !c.is_ascii_alphanumeric() && c != '-')
            .unwrap_or(suffixed.len());
        let (suffix, tail) = suffixed.split_at(n);
        let Some(after) = tail.strip_prefix(':') else {
            continue;
        };
        let kind = match suffix {
            "NEXT" => Ok(Kind::Next),
            "SAME" => Ok(Kind::Same),
            "NOT" => Ok(Kind::Not),
            "LABEL" => Ok(Kind::Label),
            "EMPTY" => Ok(Kind::Empty),
            other => Err(other),
        };
        return Some((kind, after));
    }
    None
}

/// Compiles a pattern: literal text with `{{regex}}` blocks; whitespace
/// runs match any horizontal whitespace run.
fn compile(pattern: &str) -> Result<Regex, String> {
    let mut re = String::new();
    let mut rest = pattern;
    while !rest.is_empty() {
        let (literal, tail) = match rest.find("{{") {
            Some(i) => (&rest[..i], Some(&rest[i + 2..])),
            None => (rest, None),
        };
        let mut words = literal.split([' ', '\t']).peekable();
        while let Some(w) = words.next() {
            re.push_str(&regex::escape(w));
            if words.peek().is_some() && !re.ends_with("[ \\t]+") {
                re.push_str("[ \\t]+");
            }
        }
        rest = match tail {
            None => "",
            Some(t) => {
                let end = t.find("}}").ok_or("unterminated {{regex}} block")?;
                re.push_str(&format!("(?:{})", &t[..end]));
                &t[end + 2..]
            }
        };
    }
    Regex::new(&re).map_err(|e| format!("invalid regex: {e}"))
}

/// Reads the directives of a check file.
pub fn parse_checks(source: &str) -> Result<Vec<Check>, String> {
    let mut checks = vec![];
    for (i, line) in source.lines().enumerate() {
        let Some((kind, after)) = find_directive(line) else {
            continue;
        };
        let at = |msg: String| format!("line {}: {msg}", i + 1);
        let kind = kind.map_err(|s| at(format!("unknown directive CHECK-{s}")))?;
        let pattern = after.trim().to_string();
        match (kind, pattern.is_empty()) {
            (Kind::Empty, false) => return Err(at("CHECK-EMPTY takes no pattern".into())),
            (Kind::Empty, true) => {}
            (_, true) => return Err(at(format!("{} needs a pattern", kind.name()))),
            (_, false) => {}
        }
        let regex = compile(&pattern).map_err(|e| at(format!("{}: {e}", kind.name())))?;
        checks.push(Check {
            kind,
            pattern,
            line: i + 1,
            regex,
        });
    }
    Ok(checks)
}

/// The input text with its line boundaries.
struct Input<'a> {
    text: &'a str,
    /// Byte offset of the start of each line.
    starts: Vec<usize>,
}

impl<'a> Input<'a> {
    fn new(text: &'a str) -> Input<'a> {
        let mut starts = vec![0];
        starts.extend(
            text.match_indices('\n')
                .map(|(i, _)| i + 1)
                .filter(|&i| i < text.len()),
        );
        Input { text, starts }
    }

    /// 0-based line of a byte offset.
    fn line_of(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }

    /// The text of a line without its newline.
    fn line(&self, line: usize) -> &'a str {
        let start = self.starts[line];
        let end = self
            .starts
            .get(line + 1)
            .map_or(self.text.len(), |&e| e - 1);
        &self.text[start..end]
    }

    /// The first match of `re` in `[from, to)`, within one line.
    fn find(&self, re: &Regex, from: usize, to: usize) -> Option<(usize, usize)> {
        let mut line = self.line_of(from);
        while line < self.starts.len() && self.starts[line] <= to {
            let start = self.starts[line];
            let end = (start + self.line(line).len()).min(to);
            let from_in_line = from.saturating_sub(start);
            if from_in_line <= end - start {
                if let Some(m) = re.find_at(&self.text[start..end], from_in_line) {
                    return Some((start + m.start(), start + m.end()));
                }
            }
            line += 1;
        }
        None
    }

    /// A few lines from `offset` on, numbered, for messages.
    fn excerpt(&self, offset: usize, count: usize) -> String {
        let first = self.line_of(offset);
        (first..(first + count).min(self.starts.len()))
            .map(|l| format!("  {:4} | {}\n", l + 1, self.line(l)))
            .collect()
    }
}

/// Checks `output` against `checks`. On failure, returns one message per
/// failing block (the first failure in each), each naming the directive
/// and where in the output it searched.
pub fn check(checks: &[Check], output: &str) -> Result<(), Vec<String>> {
    let input = Input::new(output);
    // Labels first: they delimit the blocks.
    let mut bounds = vec![0];
    let mut from = 0;
    for c in checks.iter().filter(|c| c.kind == Kind::Label) {
        match input.find(&c.regex, from, output.len()) {
            Some((start, end)) => {
                bounds.push(start);
                from = end;
            }
            None => {
                return Err(vec![format!(
                    "{}\n  label not found in the output, scanning from line {}:\n{}",
                    c.describe(),
                    input.line_of(from) + 1,
                    input.excerpt(from, 3)
                )])
            }
        }
    }
    bounds.push(output.len());
    let mut failures = vec![];
    let mut block = 0;
    let mut group: Vec<&Check> = vec![];
    for c in checks {
        if c.kind == Kind::Label {
            if let Err(e) = check_block(&input, &group, bounds[block], bounds[block + 1]) {
                failures.push(e);
            }
            block += 1;
            group.clear();
        }
        group.push(c);
    }
    if let Err(e) = check_block(&input, &group, bounds[block], bounds[block + 1]) {
        failures.push(e);
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures)
    }
}

/// Runs the directives of one block over `[start, end)` of the input.
fn check_block(input: &Input, checks: &[&Check], start: usize, end: usize) -> Result<(), String> {
    let mut cursor = start;
    let mut prev_line: Option<usize> = None;
    let mut nots: Vec<&Check> = vec![];
    let excluded = |nots: &[&Check], from: usize, to: usize| -> Result<(), String> {
        for n in nots {
            if let Some((s, _)) = input.find(&n.regex, from, to) {
                return Err(format!(
                    "{}\n  excluded pattern found at output line {}:\n{}",
                    n.describe(),
                    input.line_of(s) + 1,
                    input.excerpt(s, 1)
                ));
            }
        }
        Ok(())
    };
    for c in checks {
        match c.kind {
            Kind::Not => nots.push(c),
            Kind::Empty => {
                let line = prev_line.map_or_else(|| input.line_of(cursor), |l| l + 1);
                if line >= input.starts.len() || !input.line(line).is_empty() {
                    return Err(format!(
                        "{}\n  expected an empty line at output line {}:\n{}",
                        c.describe(),
                        line + 1,
                        input.excerpt(
                            input.starts.get(line).copied().unwrap_or(input.text.len()),
                            1
                        )
                    ));
                }
                excluded(&nots, cursor, input.starts[line])?;
                nots.clear();
                cursor = input.starts[line];
                prev_line = Some(line);
            }
            Kind::Check | Kind::Next | Kind::Same | Kind::Label => {
                let Some((s, e)) = input.find(&c.regex, cursor, end) else {
                    return Err(format!(
                        "{}\n  pattern not found, scanning from output line {}:\n{}",
                        c.describe(),
                        input.line_of(cursor) + 1,
                        input.excerpt(cursor, 3)
                    ));
                };
                let line = input.line_of(s);
                let wanted = match (c.kind, prev_line) {
                    (Kind::Next, Some(p)) => Some((p + 1, "on the line after the previous match")),
                    (Kind::Same, Some(p)) => Some((p, "on the line of the previous match")),
                    (Kind::Next | Kind::Same, None) => {
                        return Err(format!(
                            "{}\n  {} needs a previous match",
                            c.describe(),
                            c.kind.name()
                        ))
                    }
                    _ => None,
                };
                if let Some((want, what)) = wanted.filter(|(want, _)| *want != line) {
                    return Err(format!(
                        "{}\n  expected {what} (output line {}), but the next match is on line {}:\n{}  expected at:\n{}",
                        c.describe(),
                        want + 1,
                        line + 1,
                        input.excerpt(s, 1),
                        input.excerpt(input.starts.get(want).copied().unwrap_or(input.text.len()), 1)
                    ));
                }
                excluded(&nots, cursor, s)?;
                nots.clear();
                cursor = e;
                prev_line = Some(line);
            }
        }
    }
    excluded(&nots, cursor, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(checks: &str, output: &str) -> Result<(), Vec<String>> {
        check(&parse_checks(checks).unwrap(), output)
    }

    fn fails_with(checks: &str, output: &str, message: &str) {
        match run(checks, output) {
            Ok(()) => panic!("expected a failure containing {message:?}"),
            Err(e) => assert!(
                e.iter().any(|m| m.contains(message)),
                "{message:?} not in {e:#?}"
            ),
        }
    }

    const OUT: &str = "alpha beta\ngamma  delta\n\nepsilon\nalpha again\n";

    #[test]
    fn plain_next_same_empty() {
        run("// CHECK: alpha\n// CHECK-SAME: beta\n// CHECK-NEXT: gamma delta\n// CHECK-EMPTY:\n// CHECK-NEXT: epsilon", OUT)
            .unwrap();
        run("// CHECK: beta\n// CHECK: epsilon\n// CHECK: again", OUT).unwrap();
        fails_with(
            "// CHECK: epsilon\n// CHECK: gamma",
            OUT,
            "line 2: CHECK: gamma\n  pattern not found, scanning from output line 4",
        );
        fails_with("// CHECK: alpha\n// CHECK-NEXT: epsilon", OUT, "expected on the line after the previous match (output line 2), but the next match is on line 4");
        fails_with(
            "// CHECK: alpha\n// CHECK-SAME: gamma",
            OUT,
            "on the line of the previous match",
        );
        fails_with(
            "// CHECK: alpha\n// CHECK-EMPTY:",
            OUT,
            "expected an empty line at output line 2",
        );
        fails_with("// CHECK-NEXT: alpha", OUT, "needs a previous match");
    }

    #[test]
    fn whitespace_is_canonicalized() {
        // A space matches a run; a run matches a single space.
        run("// CHECK: gamma delta", OUT).unwrap();
        run("// CHECK:    alpha     beta   ", OUT).unwrap();
        fails_with("// CHECK: gammadelta", OUT, "pattern not found");
        fails_with("// CHECK: alphabeta", OUT, "pattern not found");
    }

    #[test]
    fn regex_blocks() {
        run("// CHECK: {{^}}gamma {{[a-z]+}}{{$}}", OUT).unwrap();
        run("// CHECK: al{{p|x}}ha {{b.t}}a", OUT).unwrap();
        fails_with("// CHECK: {{^}}beta", OUT, "pattern not found");
        // Literal brackets and braces outside blocks are plain text.
        run(
            "// CHECK: dense<[[1.0]]> {a = {b}}",
            "x = dense<[[1.0]]> {a = {b}}\n",
        )
        .unwrap();
        assert!(parse_checks("// CHECK: {{(}}")
            .unwrap_err()
            .contains("line 1: CHECK: invalid regex"));
        assert!(parse_checks("// CHECK: {{a")
            .unwrap_err()
            .contains("unterminated"));
    }

    #[test]
    fn not_covers_the_gap_between_matches() {
        run(
            "// CHECK: alpha\n// CHECK-NOT: zeta\n// CHECK: epsilon",
            OUT,
        )
        .unwrap();
        fails_with(
            "// CHECK: alpha\n// CHECK-NOT: delta\n// CHECK: epsilon",
            OUT,
            "line 2: CHECK-NOT: delta\n  excluded pattern found at output line 2",
        );
        // Before the first match and after the last.
        fails_with(
            "// CHECK-NOT: beta\n// CHECK: gamma",
            OUT,
            "excluded pattern found at output line 1",
        );
        fails_with(
            "// CHECK: gamma\n// CHECK-NOT: again",
            OUT,
            "excluded pattern found at output line 5",
        );
        // Only the gap: `alpha` after `epsilon` is fine.
        run(
            "// CHECK: gamma\n// CHECK-NOT: alpha\n// CHECK: epsilon",
            OUT,
        )
        .unwrap();
    }

    #[test]
    fn labels_split_blocks_and_report_each_failure() {
        let out = "func a\n  x = 1\nfunc b\n  y = 2\nfunc c\n  z = 3\n";
        run(
            "// CHECK-LABEL: func a\n// CHECK-NEXT: x = 1\n// CHECK-LABEL: func b\n// CHECK: y = 2",
            out,
        )
        .unwrap();
        // `y = 2` is only searched in block a, where it is not.
        fails_with(
            "// CHECK-LABEL: func a\n// CHECK: y = 2\n// CHECK-LABEL: func b",
            out,
            "line 2: CHECK: y = 2",
        );
        let errors = run(
            "// CHECK-LABEL: func a\n// CHECK: nope\n// CHECK-LABEL: func b\n// CHECK: y = 2\n// CHECK-LABEL: func c\n// CHECK: nada",
            out,
        )
        .unwrap_err();
        assert_eq!(errors.len(), 2, "{errors:#?}");
        fails_with(
            "// CHECK-LABEL: func c\n// CHECK-LABEL: func a",
            out,
            "line 2: CHECK-LABEL: func a\n  label not found",
        );
    }

    #[test]
    fn directive_syntax() {
        assert!(parse_checks("// CHECK-NXT: a")
            .unwrap_err()
            .contains("line 1: unknown directive CHECK-NXT"));
        assert!(parse_checks("// CHECK:")
            .unwrap_err()
            .contains("CHECK needs a pattern"));
        assert!(parse_checks("// CHECK-EMPTY: x")
            .unwrap_err()
            .contains("takes no pattern"));
        // Not directives: a longer word, or no colon.
        assert!(parse_checks("// MYCHECK: a\n// CHECKS: b\n// CHECK-NEXT a")
            .unwrap()
            .is_empty());
        assert!(is_directive("  // CHECK-LABEL: x") && !is_directive("// RUN: roundtrip"));
    }
}
