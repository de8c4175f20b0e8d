//! TOML input: raw serde structs, then a validated `Model`.
