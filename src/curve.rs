//! Time functions (`[[curve]]`): piecewise linear through `points = [[t, v],
//! …]`, constant beyond the first and last point. A load or a prescribed
//! motion that names a curve is multiplied by its value; with no curve the
//! factor is 1.
//!
//! Besides the value, a prescribed velocity needs the curve's integral (the
//! position it leads to) and a prescribed displacement its slope (the
//! velocity at the end of a step). Both are exact for a piecewise linear
//! function: the integral is the trapezoidal sum over the pieces, and the
//! slope at `t` is the slope of the piece that ends at or contains `t`
//! (the left derivative: the velocity reached at the end of a step that
//! ends on a kink is that of the piece the step travelled on).

/// A checked piecewise linear time function: times strictly increasing, at
/// least one point, every value finite.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    pub name: String,
    /// `(t, v)`, `t` strictly increasing.
    pub points: Vec<(f64, f64)>,
}

/// A factor in time: a curve, or the constant 1.
pub type Factor<'a> = Option<&'a Curve>;

impl Curve {
    /// The piece index `i` with `t_i ≤ t < t_{i+1}` (clamped to the ends).
    fn piece(&self, t: f64) -> usize {
        let p = &self.points;
        // first point with t_k > t, minus one
        let k = p.partition_point(|&(tk, _)| tk <= t);
        k.saturating_sub(1).min(p.len().saturating_sub(2))
    }

    /// `c(t)`.
    pub fn value(&self, t: f64) -> f64 {
        let p = &self.points;
        if p.len() == 1 || t <= p[0].0 {
            return p[0].1;
        }
        let last = p[p.len() - 1];
        if t >= last.0 {
            return last.1;
        }
        let i = self.piece(t);
        let ((t0, v0), (t1, v1)) = (p[i], p[i + 1]);
        v0 + (v1 - v0) * (t - t0) / (t1 - t0)
    }

    /// The left derivative `c'(t⁻)`: the slope of the piece that ends at or
    /// contains `t`; 0 before the first point and after the last.
    pub fn slope(&self, t: f64) -> f64 {
        let p = &self.points;
        if p.len() == 1 || t <= p[0].0 || t > p[p.len() - 1].0 {
            return 0.0;
        }
        // the piece (t_i, t_{i+1}] holding t
        let k = p.partition_point(|&(tk, _)| tk < t);
        let ((t0, v0), (t1, v1)) = (p[k - 1], p[k]);
        (v1 - v0) / (t1 - t0)
    }

    /// The right derivative `c'(t⁺)`: the slope of the piece that starts at
    /// or contains `t`; 0 before the first point and from the last on.
    pub fn slope_after(&self, t: f64) -> f64 {
        let p = &self.points;
        if p.len() == 1 || t < p[0].0 || t >= p[p.len() - 1].0 {
            return 0.0;
        }
        let i = self.piece(t);
        let ((t0, v0), (t1, v1)) = (p[i], p[i + 1]);
        (v1 - v0) / (t1 - t0)
    }

    /// `∫_0^t c(τ) dτ` (negative for `t < 0`), exact for the piecewise
    /// linear function extended constantly beyond its ends.
    pub fn integral(&self, t: f64) -> f64 {
        self.antiderivative(t) - self.antiderivative(0.0)
    }

    /// An antiderivative `F` with `F(t_0) = 0` at the first point.
    fn antiderivative(&self, t: f64) -> f64 {
        let p = &self.points;
        let (t0, v0) = p[0];
        if t <= t0 {
            return v0 * (t - t0);
        }
        let mut sum = 0.0;
        for w in p.windows(2) {
            let ((ta, va), (tb, vb)) = (w[0], w[1]);
            if t <= tb {
                let vt = va + (vb - va) * (t - ta) / (tb - ta);
                return sum + 0.5 * (va + vt) * (t - ta);
            }
            sum += 0.5 * (va + vb) * (tb - ta);
        }
        let (tl, vl) = p[p.len() - 1];
        sum + vl * (t - tl)
    }
}

/// `c(t)`, 1 without a curve.
pub fn value(c: Factor, t: f64) -> f64 {
    c.map_or(1.0, |c| c.value(t))
}

/// `c'(t⁻)`, 0 without a curve.
pub fn slope(c: Factor, t: f64) -> f64 {
    c.map_or(0.0, |c| c.slope(t))
}

/// `c'(t⁺)`, 0 without a curve.
pub fn slope_after(c: Factor, t: f64) -> f64 {
    c.map_or(0.0, |c| c.slope_after(t))
}

/// `∫_0^t c`, `t` without a curve.
pub fn integral(c: Factor, t: f64) -> f64 {
    c.map_or(t, |c| c.integral(t))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ramp() -> Curve {
        Curve {
            name: "ramp".into(),
            points: vec![(0.0, 0.0), (1.0, 2.0), (3.0, 2.0)],
        }
    }

    #[test]
    fn value_is_linear_between_points_and_constant_beyond() {
        let c = ramp();
        assert_eq!(c.value(-1.0), 0.0);
        assert_eq!(c.value(0.25), 0.5);
        assert_eq!(c.value(2.0), 2.0);
        assert_eq!(c.value(10.0), 2.0);
    }

    #[test]
    fn slope_is_the_left_derivative() {
        let c = ramp();
        assert_eq!(c.slope(0.5), 2.0);
        assert_eq!(
            c.slope(1.0),
            2.0,
            "a step ending on the kink travelled the ramp"
        );
        assert_eq!(c.slope(1.5), 0.0);
        assert_eq!(c.slope(0.0), 0.0);
        assert_eq!(c.slope(4.0), 0.0);
        assert_eq!(
            c.slope_after(0.0),
            2.0,
            "a ramp from t = 0 starts moving at once"
        );
        assert_eq!(c.slope_after(1.0), 0.0);
    }

    #[test]
    fn integral_is_exact_for_the_pieces() {
        let c = ramp();
        assert!((c.integral(1.0) - 1.0).abs() < 1e-15);
        assert!((c.integral(0.5) - 0.25).abs() < 1e-15);
        assert!((c.integral(4.0) - (1.0 + 4.0 + 2.0)).abs() < 1e-14);
        // a curve starting after 0 is constant before its first point
        let late = Curve {
            name: "late".into(),
            points: vec![(1.0, 3.0), (2.0, 5.0)],
        };
        assert!((late.integral(1.0) - 3.0).abs() < 1e-15);
        assert!((late.integral(2.0) - 7.0).abs() < 1e-15);
    }
}
