//! Line diffs for test failure messages and bless reports.

/// A unified-style diff of two texts: changed lines prefixed `-`/`+`, with
/// up to two lines of context around each change, `…` between hunks.
/// Empty when the texts are equal.
pub fn line_diff(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    // Longest common subsequence table, from the ends.
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let mut lines: Vec<(char, &str)> = vec![];
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            lines.push((' ', a[i]));
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            lines.push(('-', a[i]));
            i += 1;
        } else {
            lines.push(('+', b[j]));
            j += 1;
        }
    }
    const CONTEXT: usize = 2;
    let changed: Vec<usize> = (0..lines.len()).filter(|&k| lines[k].0 != ' ').collect();
    let near = |k: usize| changed.iter().any(|&c| c.abs_diff(k) <= CONTEXT);
    let mut out = String::new();
    let mut skipped = false;
    for (k, (tag, line)) in lines.iter().enumerate() {
        if near(k) {
            if skipped && !out.is_empty() {
                out.push_str("…\n");
            }
            skipped = false;
            out.push_str(&format!("{tag} {line}\n"));
        } else {
            skipped = true;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::line_diff;

    #[test]
    fn shows_changes_with_context() {
        assert_eq!(line_diff("a\nb\n", "a\nb\n"), "");
        let old: String = (1..=12).map(|i| format!("{i}\n")).collect();
        let new: String = (1..=13)
            .map(|i| {
                if i == 2 {
                    "two\n".into()
                } else {
                    format!("{i}\n")
                }
            })
            .collect();
        assert_eq!(
            line_diff(&old, &new),
            "  1\n- 2\n+ two\n  3\n  4\n…\n  11\n  12\n+ 13\n"
        );
    }
}
