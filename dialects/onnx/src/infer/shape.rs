//! Shape arithmetic shared by the op families: broadcasting, axis
//! normalization, and the like.

use super::Fail;
use crate::dim::Dim;
use crate::invalid;

/// Multidirectional (numpy) broadcasting of two shapes.
pub fn broadcast(a: &[Dim], b: &[Dim]) -> Result<Vec<Dim>, Fail> {
    let rank = a.len().max(b.len());
    let mut out = Vec::with_capacity(rank);
    for i in 0..rank {
        let x = if i + a.len() >= rank { &a[i + a.len() - rank] } else { &Dim::Known(1) };
        let y = if i + b.len() >= rank { &b[i + b.len() - rank] } else { &Dim::Known(1) };
        out.push(broadcast_dim(x, y).ok_or_else(|| {
            invalid!("shapes {} and {} do not broadcast", fmt_dims(a), fmt_dims(b))
        })?);
    }
    Ok(out)
}

/// Broadcasts two dims: 1 stretches; equal dims stay; a static dim other
/// than 1 wins over an unknown one (the only valid outcome).
pub fn broadcast_dim(x: &Dim, y: &Dim) -> Option<Dim> {
    match (x, y) {
        (Dim::Known(1), d) | (d, Dim::Known(1)) => Some(d.clone()),
        (Dim::Known(p), Dim::Known(q)) => (p == q).then(|| x.clone()),
        _ if x == y => Some(x.clone()),
        (Dim::Known(_), _) => Some(x.clone()),
        (_, Dim::Known(_)) => Some(y.clone()),
        _ => Some(Dim::Unknown),
    }
}

/// Broadcasts any number of shapes.
pub fn broadcast_all<'a>(shapes: impl IntoIterator<Item = &'a [Dim]>) -> Result<Vec<Dim>, Fail> {
    shapes.into_iter().try_fold(Vec::new(), |acc, s| broadcast(&acc, s))
}

/// Maps an axis in `[-rank, rank)` to `[0, rank)`.
pub fn normalize_axis(axis: i64, rank: usize) -> Result<usize, Fail> {
    let r = rank as i64;
    if axis < -r || axis >= r {
        return Err(invalid!("axis {axis} is out of range for rank {rank}"));
    }
    Ok(if axis < 0 { (axis + r) as usize } else { axis as usize })
}

/// Formats dims as `[1, ?, "N"]` for messages.
pub fn fmt_dims(dims: &[Dim]) -> String {
    let parts: Vec<String> = dims.iter().map(ToString::to_string).collect();
    format!("[{}]", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(v: &[i64]) -> Vec<Dim> {
        v.iter().map(|&x| Dim::Known(x)).collect()
    }

    #[test]
    fn numpy_broadcasting() {
        assert_eq!(broadcast(&d(&[2, 1, 4]), &d(&[3, 1])).unwrap(), d(&[2, 3, 4]));
        assert!(broadcast(&d(&[2]), &d(&[3])).is_err());
        let n = Dim::param("N");
        assert_eq!(broadcast(&[n.clone(), Dim::Known(1)], &d(&[5])).unwrap(), vec![n.clone(), Dim::Known(5)]);
        assert_eq!(broadcast(&[Dim::Unknown], &d(&[5])).unwrap(), d(&[5]));
        assert_eq!(normalize_axis(-1, 3).unwrap(), 2);
        assert!(normalize_axis(3, 3).is_err());
    }
}
