//! Real roots of polynomials of degree ≤ 4 on an interval, without allocation.
//!
//! Method: the real roots of `p` are separated by the real roots of `p'`
//! (computed recursively, the quadratic in closed form), so on every interval
//! between consecutive critical points `p` is monotone and has at most one
//! root, found by safeguarded Newton–bisection to full precision. A critical
//! point where `|p|` is at round-off level is also reported (double roots,
//! where two solutions merge, do not change sign).

/// `c[0] + c[1] x + … + c[4] x⁴` by Horner's rule, with its derivative.
#[inline]
fn eval(c: &[f64; 5], deg: usize, x: f64) -> (f64, f64) {
    let mut p = c[deg];
    let mut dp = 0.0;
    for k in (0..deg).rev() {
        dp = dp * x + p;
        p = p * x + c[k];
    }
    (p, dp)
}

/// Upper bound of `|c_k x^k|` terms at `x` (round-off scale of `p(x)`).
#[inline]
fn magnitude(c: &[f64; 5], deg: usize, x: f64) -> f64 {
    let ax = x.abs();
    let mut m = c[deg].abs();
    for k in (0..deg).rev() {
        m = m * ax + c[k].abs();
    }
    m
}

/// Cauchy bound: every root satisfies `|x| ≤ 1 + max_k |c_k / c_deg|`.
pub(crate) fn cauchy_bound(c: &[f64; 5], deg: usize) -> f64 {
    let mut m: f64 = 0.0;
    for k in 0..deg {
        m = m.max((c[k] / c[deg]).abs());
    }
    1.0 + m
}

/// Effective degree (highest exactly non-zero coefficient).
pub(crate) fn degree(c: &[f64; 5]) -> usize {
    let mut d = 4;
    while d > 0 && c[d] == 0.0 {
        d -= 1;
    }
    d
}

/// Root of the monotone `p` on `[a, b]` with `p(a)·p(b) ≤ 0`.
fn bracketed_root(c: &[f64; 5], deg: usize, mut a: f64, mut b: f64) -> f64 {
    let (mut pa, _) = eval(c, deg, a);
    let mut x = 0.5 * (a + b);
    for _ in 0..200 {
        let (p, dp) = eval(c, deg, x);
        if p == 0.0 {
            return x;
        }
        if (p < 0.0) == (pa < 0.0) {
            a = x;
            pa = p;
        } else {
            b = x;
        }
        let xn = x - p / dp;
        let next = if dp != 0.0 && xn > a && xn < b {
            xn
        } else {
            0.5 * (a + b)
        };
        if (next - x).abs() <= 4.0 * f64::EPSILON * x.abs().max(f64::MIN_POSITIVE)
            || b - a <= f64::EPSILON * a.abs().max(b.abs())
        {
            return next;
        }
        x = next;
    }
    x
}

/// Real roots of `c[0] + … + c[deg] x^deg` in `[lo, hi]` (finite), written to
/// `out` in increasing order; returns their number (≤ 4). A polynomial that is
/// identically zero has no isolated roots and returns 0.
pub(crate) fn real_roots(c: &[f64; 5], deg: usize, lo: f64, hi: f64, out: &mut [f64; 4]) -> usize {
    let mut deg = deg;
    while deg > 0 && c[deg] == 0.0 {
        deg -= 1;
    }
    if deg == 0 || !(lo <= hi) {
        return 0;
    }
    if deg == 1 {
        let x = -c[0] / c[1];
        if x >= lo && x <= hi {
            out[0] = x;
            return 1;
        }
        return 0;
    }
    // Critical points (roots of p') inside (lo, hi).
    let mut d = [0.0; 5];
    for k in 0..deg {
        d[k] = (k + 1) as f64 * c[k + 1];
    }
    let mut crit = [0.0; 4];
    let nc = if deg == 2 {
        let x = -d[0] / d[1];
        if x > lo && x < hi {
            crit[0] = x;
            1
        } else {
            0
        }
    } else {
        real_roots(&d, deg - 1, lo, hi, &mut crit)
    };
    let mut pts = [0.0; 6];
    pts[0] = lo;
    let mut np = 1;
    for &x in crit.iter().take(nc) {
        if x > pts[np - 1] && x < hi {
            pts[np] = x;
            np += 1;
        }
    }
    pts[np] = hi;
    np += 1;
    let mut n = 0;
    let push = |x: f64, out: &mut [f64; 4], n: &mut usize| {
        if *n < 4 && (*n == 0 || x > out[*n - 1]) {
            out[*n] = x;
            *n += 1;
        }
    };
    for i in 0..np - 1 {
        let (a, b) = (pts[i], pts[i + 1]);
        let (pa, _) = eval(c, deg, a);
        let (pb, _) = eval(c, deg, b);
        // Touching (double) root at an interior critical point.
        if i > 0 && pa.abs() <= 64.0 * f64::EPSILON * magnitude(c, deg, a) {
            push(a, out, &mut n);
        }
        if pa == 0.0 {
            push(a, out, &mut n);
        } else if pb == 0.0 {
            if i + 1 == np - 1 {
                push(b, out, &mut n);
            }
        } else if (pa < 0.0) != (pb < 0.0) {
            push(bracketed_root(c, deg, a, b), out, &mut n);
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_simple_roots() {
        // (x-1)(x-2)(x+3)(x-0.5) = x⁴ - 0.5x³ - 7x² + 9.5x - 3
        let c = [-3.0, 9.5, -7.0, -0.5, 1.0];
        let mut out = [0.0; 4];
        let n = real_roots(&c, 4, -10.0, 10.0, &mut out);
        assert_eq!(n, 4);
        let exp = [-3.0, 0.5, 1.0, 2.0];
        for k in 0..4 {
            assert!((out[k] - exp[k]).abs() < 1e-13, "{:?}", out);
        }
    }

    #[test]
    fn double_root_reported() {
        // (x-1)²(x²+1) = x⁴ - 2x³ + 2x² - 2x + 1
        let c = [1.0, -2.0, 2.0, -2.0, 1.0];
        let mut out = [0.0; 4];
        let n = real_roots(&c, 4, -5.0, 5.0, &mut out);
        assert_eq!(n, 1);
        assert!((out[0] - 1.0).abs() < 1e-7);
    }
}
