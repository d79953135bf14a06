//! Topological order of a graph's nodes.
//!
//! The IR spec wants nodes in topological order, but producers do not
//! always comply, so the importer sorts (Kahn's algorithm, taking ready
//! nodes lowest index first: a file already in order keeps its order).
//! A node depends on the producers of its inputs and also of the names its
//! subgraphs take from the enclosing graph (an `If` branch reading a value
//! computed further down the file).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

use onnx_mlc_proto::{GraphProto, NodeProto};

/// Subgraphs were nested deeper than the limit while collecting names.
pub(crate) struct TooDeep;

/// The names a node's subgraphs (at any depth) use without defining them.
pub(crate) fn subgraph_free_names(
    node: &NodeProto,
    depth: usize,
    limit: usize,
) -> Result<HashSet<&str>, TooDeep> {
    let mut out = HashSet::new();
    for a in &node.attribute {
        for g in a.g.iter().chain(&a.graphs) {
            if depth + 1 > limit {
                return Err(TooDeep);
            }
            graph_free_names(g, depth + 1, limit, &mut out)?;
        }
    }
    Ok(out)
}

fn graph_free_names<'g>(
    g: &'g GraphProto,
    depth: usize,
    limit: usize,
    out: &mut HashSet<&'g str>,
) -> Result<(), TooDeep> {
    let mut defined: HashSet<&str> = g.input.iter().map(|v| v.name.as_str()).collect();
    defined.extend(g.initializer.iter().map(|t| t.name.as_str()));
    defined.extend(
        g.sparse_initializer
            .iter()
            .filter_map(|s| s.values.as_ref())
            .map(|t| t.name.as_str()),
    );
    defined.extend(
        g.node
            .iter()
            .flat_map(|n| n.output.iter().map(String::as_str)),
    );
    let mut used: Vec<&str> = vec![];
    for n in &g.node {
        used.extend(n.input.iter().map(String::as_str));
        used.extend(subgraph_free_names(n, depth, limit)?);
    }
    used.extend(g.output.iter().map(|v| v.name.as_str()));
    out.extend(
        used.into_iter()
            .filter(|n| !n.is_empty() && !defined.contains(n)),
    );
    Ok(())
}

/// Orders `nodes` so that every node comes after the producers it
/// depends on. `deps[i]` lists the names node `i` reads (inputs and
/// subgraph free names); `producers` maps a name to the node that writes
/// it. Names without a producer (graph inputs, outer values, undefined
/// names) impose no order. Returns the order, or the nodes of a cycle.
pub(crate) fn topo_order(
    deps: &[Vec<&str>],
    producers: &HashMap<&str, usize>,
) -> Result<Vec<usize>, Vec<usize>> {
    let n = deps.len();
    let preds: Vec<Vec<usize>> = deps
        .iter()
        .map(|names| {
            let mut p: Vec<usize> = names
                .iter()
                .filter_map(|name| producers.get(name).copied())
                .collect();
            p.sort_unstable();
            p.dedup();
            p
        })
        .collect();
    let mut succs = vec![vec![]; n];
    let mut pending: Vec<usize> = preds.iter().map(Vec::len).collect();
    for (i, p) in preds.iter().enumerate() {
        for &j in p {
            succs[j].push(i);
        }
    }
    let mut ready: BinaryHeap<Reverse<usize>> =
        (0..n).filter(|&i| pending[i] == 0).map(Reverse).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(Reverse(i)) = ready.pop() {
        order.push(i);
        for &s in &succs[i] {
            pending[s] -= 1;
            if pending[s] == 0 {
                ready.push(Reverse(s));
            }
        }
    }
    if order.len() == n {
        return Ok(order);
    }
    // Every node left waits on another node left: walking predecessors
    // from any of them must come back to a node already seen.
    let left: Vec<bool> = pending.iter().map(|&p| p > 0).collect();
    let start = left.iter().position(|&l| l).expect("some node is left");
    let mut path = vec![start];
    let mut seen = HashMap::from([(start, 0)]);
    loop {
        let last = *path.last().expect("path is never empty");
        let next = *preds[last]
            .iter()
            .find(|&&p| left[p])
            .expect("a node left waits on a node left");
        if let Some(&at) = seen.get(&next) {
            let mut cycle = path.split_off(at);
            // The walk goes from consumer to producer; report data order,
            // starting from the first node in the file.
            cycle.reverse();
            let first = (0..cycle.len())
                .min_by_key(|&k| cycle[k])
                .expect("a cycle has nodes");
            cycle.rotate_left(first);
            return Err(cycle);
        }
        seen.insert(next, path.len());
        path.push(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(deps: &[&[&'static str]], outputs: &[&'static str]) -> Result<Vec<usize>, Vec<usize>> {
        let deps: Vec<Vec<&str>> = deps.iter().map(|d| d.to_vec()).collect();
        let producers = outputs.iter().enumerate().map(|(i, o)| (*o, i)).collect();
        topo_order(&deps, &producers)
    }

    #[test]
    fn sorted_input_keeps_its_order() {
        assert_eq!(
            order(&[&["x"], &["a"], &["a", "b"]], &["a", "b", "c"]),
            Ok(vec![0, 1, 2])
        );
    }

    #[test]
    fn unsorted_input_is_sorted_stably() {
        // c = f(b), b = g(a), a = h(x), d = k(x)
        assert_eq!(
            order(&[&["b"], &["a"], &["x"], &["x"]], &["c", "b", "a", "d"]),
            Ok(vec![2, 1, 0, 3])
        );
    }

    #[test]
    fn cycles_are_reported_in_data_order() {
        // a = f(c), b = g(a), c = h(b), d = k(d)
        assert_eq!(
            order(&[&["c"], &["a"], &["b"], &["x"]], &["a", "b", "c", "d"]),
            Err(vec![0, 1, 2])
        );
        assert_eq!(order(&[&["a"]], &["a"]), Err(vec![0]));
    }
}
