//! Command line, input errors, output formats, restart, the driver.

mod driven_inputs;
mod honest_runs;
mod ledgers;
