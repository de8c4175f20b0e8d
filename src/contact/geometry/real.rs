//! Scalars of the contact kinematics: `f64`, and forward-mode dual numbers
//! [`Dual<N>`] that carry the exact first derivatives with respect to `N`
//! seeded inputs.
//!
//! The contact point force and rates are evaluated by one generic code path
//! (geometry, projection derivative, frame, law). With `f64` it gives the
//! values; with `Dual<N>`, the node positions of one contact element seeded as
//! independent variables, it gives in the same pass the exact Jacobians
//! `∂u/∂x` and `∂f_c/∂x` that Newton needs (the consistent contact tangent,
//! exact to round-off: no difference step, no truncation error). Branches
//! (edge or vertex projection, stick or slip, open or closed) are taken on the
//! values, so the derivative is that of the active branch, which is the
//! element of the generalized Jacobian a semismooth Newton uses.

use std::fmt::Debug;
use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// A real scalar: `f64` or a dual number. Arithmetic with plain `f64`
/// constants on the right (`x * 2.0`) is supported for both.
pub trait Real:
    Copy
    + Debug
    + Default
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + Add<f64, Output = Self>
    + Sub<f64, Output = Self>
    + Mul<f64, Output = Self>
    + Div<f64, Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign<f64>
{
    /// A constant (zero derivative).
    fn cst(v: f64) -> Self;
    /// The value.
    fn re(self) -> f64;
    fn sqrt(self) -> Self;
    /// Whether the scalar carries derivatives (`false` for `f64`: code that
    /// only adds a derivative, such as the projection's, is skipped).
    const HAS_DERIVATIVES: bool;
    fn zero() -> Self {
        Self::cst(0.0)
    }
}

impl Real for f64 {
    const HAS_DERIVATIVES: bool = false;
    #[inline]
    fn cst(v: f64) -> f64 {
        v
    }
    #[inline]
    fn re(self) -> f64 {
        self
    }
    #[inline]
    fn sqrt(self) -> f64 {
        f64::sqrt(self)
    }
}

/// `v + Σ d_i ε_i`: a value and its derivatives with respect to `N` inputs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dual<const N: usize> {
    pub v: f64,
    pub d: [f64; N],
}

impl<const N: usize> Default for Dual<N> {
    fn default() -> Self {
        Dual {
            v: 0.0,
            d: [0.0; N],
        }
    }
}

impl<const N: usize> Dual<N> {
    /// The `i`-th independent variable with value `v`.
    #[inline]
    pub fn var(v: f64, i: usize) -> Self {
        let mut d = [0.0; N];
        d[i] = 1.0;
        Dual { v, d }
    }

    /// `a·self + b` applied to the value, `a·d` to the derivatives (chain rule
    /// of a function with value `f` and slope `a` at `self.v`).
    #[inline]
    fn chain(self, f: f64, a: f64) -> Self {
        let mut d = self.d;
        d.iter_mut().for_each(|x| *x *= a);
        Dual { v: f, d }
    }
}

impl<const N: usize> Real for Dual<N> {
    const HAS_DERIVATIVES: bool = true;
    #[inline]
    fn cst(v: f64) -> Self {
        Dual { v, d: [0.0; N] }
    }
    #[inline]
    fn re(self) -> f64 {
        self.v
    }
    #[inline]
    fn sqrt(self) -> Self {
        let s = self.v.sqrt();
        // d√x = dx / (2√x); at x = 0 the derivative is infinite: keep 0 for a
        // zero increment (a constant zero) and let infinities show otherwise
        let a = if s > 0.0 { 0.5 / s } else { 0.0 };
        self.chain(s, a)
    }
}

impl<const N: usize> Add for Dual<N> {
    type Output = Self;
    #[inline]
    fn add(mut self, o: Self) -> Self {
        self.v += o.v;
        for i in 0..N {
            self.d[i] += o.d[i];
        }
        self
    }
}

impl<const N: usize> Sub for Dual<N> {
    type Output = Self;
    #[inline]
    fn sub(mut self, o: Self) -> Self {
        self.v -= o.v;
        for i in 0..N {
            self.d[i] -= o.d[i];
        }
        self
    }
}

impl<const N: usize> Mul for Dual<N> {
    type Output = Self;
    #[inline]
    fn mul(self, o: Self) -> Self {
        let mut d = [0.0; N];
        for i in 0..N {
            d[i] = self.d[i] * o.v + self.v * o.d[i];
        }
        Dual { v: self.v * o.v, d }
    }
}

impl<const N: usize> Div for Dual<N> {
    type Output = Self;
    #[inline]
    fn div(self, o: Self) -> Self {
        let inv = 1.0 / o.v;
        let q = self.v * inv;
        let mut d = [0.0; N];
        for i in 0..N {
            d[i] = (self.d[i] - q * o.d[i]) * inv;
        }
        Dual { v: q, d }
    }
}

impl<const N: usize> Neg for Dual<N> {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        self.chain(-self.v, -1.0)
    }
}

impl<const N: usize> Add<f64> for Dual<N> {
    type Output = Self;
    #[inline]
    fn add(mut self, c: f64) -> Self {
        self.v += c;
        self
    }
}

impl<const N: usize> Sub<f64> for Dual<N> {
    type Output = Self;
    #[inline]
    fn sub(mut self, c: f64) -> Self {
        self.v -= c;
        self
    }
}

impl<const N: usize> Mul<f64> for Dual<N> {
    type Output = Self;
    #[inline]
    fn mul(self, c: f64) -> Self {
        self.chain(self.v * c, c)
    }
}

impl<const N: usize> Div<f64> for Dual<N> {
    type Output = Self;
    #[inline]
    fn div(self, c: f64) -> Self {
        let inv = 1.0 / c;
        self.chain(self.v * inv, inv)
    }
}

impl<const N: usize> AddAssign for Dual<N> {
    #[inline]
    fn add_assign(&mut self, o: Self) {
        *self = *self + o;
    }
}

impl<const N: usize> SubAssign for Dual<N> {
    #[inline]
    fn sub_assign(&mut self, o: Self) {
        *self = *self - o;
    }
}

impl<const N: usize> MulAssign<f64> for Dual<N> {
    #[inline]
    fn mul_assign(&mut self, c: f64) {
        *self = *self * c;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A function written once for any `Real`: its dual evaluation gives the
    /// gradient a central difference approximates.
    fn f<T: Real>(x: T, y: T) -> T {
        (x * x * y + (y / x) * 3.0 - x).sqrt() / (y + 2.0) - (-x) * 0.5
    }

    #[test]
    fn dual_derivatives_match_central_differences() {
        let (x, y) = (1.3, 0.7);
        let d = f(Dual::<2>::var(x, 0), Dual::<2>::var(y, 1));
        assert!((d.v - f(x, y)).abs() < 1e-15);
        let h = 1e-6;
        let fx = (f(x + h, y) - f(x - h, y)) / (2.0 * h);
        let fy = (f(x, y + h) - f(x, y - h)) / (2.0 * h);
        assert!((d.d[0] - fx).abs() < 1e-8, "{} vs {fx}", d.d[0]);
        assert!((d.d[1] - fy).abs() < 1e-8, "{} vs {fy}", d.d[1]);
    }
}
