//! Tiny fixed-size vector helpers on `[T; 3]` for any [`Real`] scalar (no
//! allocation).

use super::real::Real;

pub(crate) type Vec3<T = f64> = [T; 3];

#[inline]
pub(crate) fn sub<T: Real>(a: Vec3<T>, b: Vec3<T>) -> Vec3<T> {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[inline]
pub(crate) fn scale<T: Real>(a: Vec3<T>, c: T) -> Vec3<T> {
    [a[0] * c, a[1] * c, a[2] * c]
}

/// `a + c b`.
#[inline]
pub(crate) fn axpy<T: Real>(a: Vec3<T>, c: T, b: Vec3<T>) -> Vec3<T> {
    [a[0] + c * b[0], a[1] + c * b[1], a[2] + c * b[2]]
}

#[inline]
pub(crate) fn dot<T: Real>(a: Vec3<T>, b: Vec3<T>) -> T {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[inline]
pub(crate) fn cross<T: Real>(a: Vec3<T>, b: Vec3<T>) -> Vec3<T> {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[inline]
pub(crate) fn norm<T: Real>(a: Vec3<T>) -> T {
    dot(a, a).sqrt()
}

/// A constant vector of any scalar.
#[inline]
pub(crate) fn cst<T: Real>(a: [f64; 3]) -> Vec3<T> {
    [T::cst(a[0]), T::cst(a[1]), T::cst(a[2])]
}
