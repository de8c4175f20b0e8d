//! Closest-point projection onto a master face and the contact operators
//! (interface fixed by the skeleton; the geometry owner fills the bodies).
