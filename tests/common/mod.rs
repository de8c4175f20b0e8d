//! Fixtures and checks shared by the areas of the test suite (`tests/suite.rs`;
//! not every area uses all of it).
#![allow(dead_code)]

pub mod coulomb;
pub mod fclib;
pub mod fe;
pub mod fixture;
pub mod geom;
pub mod history;
pub mod python;
pub mod run;
pub mod validation;
