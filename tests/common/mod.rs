//! Fixtures and checks shared by the test crates, included by each as
//! `#[path = "../common/mod.rs"] mod common;` (not every crate uses all of it).
#![allow(dead_code)]

pub mod fclib;
pub mod fe;
pub mod fixture;
pub mod geom;
pub mod history;
pub mod python;
pub mod run;
pub mod validation;
