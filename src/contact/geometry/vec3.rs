//! Tiny fixed-size vector helpers on `[f64; 3]` (no allocation, no generics).

pub(crate) type Vec3 = [f64; 3];

#[inline]
pub(crate) fn sub(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[inline]
pub(crate) fn scale(a: Vec3, c: f64) -> Vec3 {
    [a[0] * c, a[1] * c, a[2] * c]
}

/// `a + c b`.
#[inline]
pub(crate) fn axpy(a: Vec3, c: f64, b: Vec3) -> Vec3 {
    [a[0] + c * b[0], a[1] + c * b[1], a[2] + c * b[2]]
}

#[inline]
pub(crate) fn dot(a: Vec3, b: Vec3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[inline]
pub(crate) fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[inline]
pub(crate) fn norm(a: Vec3) -> f64 {
    dot(a, a).sqrt()
}
