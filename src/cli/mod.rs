//! The command line: the programs' shared front end ([`app`]) and the
//! subcommands that are not the FE run itself.

pub mod app;
pub mod fc;
pub mod fc_bench;
