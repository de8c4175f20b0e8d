//! Subcommands of the `emcontact` binary that are not the FE run itself.

pub mod fc;
pub mod fc_bench;
