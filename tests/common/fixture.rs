//! Model fixtures: the TOML models under `tests/common/models/` (and the
//! validation cases' inputs), varied per test by key, so that a test states
//! only what it changes: `Fixture::load("blocks").set("contact.0.friction",
//! 0.8).text()`. A numeric path segment indexes an array of tables.

use std::path::Path;
use toml::{Table, Value};

/// The raw text of `tests/common/models/NAME.toml`, for tests that name its
/// lines or edit it as text.
pub fn source(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/common/models/{name}.toml"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// One body of `material` (E = 1000, ν = 0.3, ρ = 1), named `body` and
/// meshed by the group `body` of the mesh file `file`, Δt = 0.01 to 0.02,
/// with `extra` appended (the body's own keys first). Raw text, a key a
/// line from `[problem]` on line 1 to `material` on line 12, for tests that
/// name its lines.
pub fn on_mesh_file(dim: usize, file: &str, body: &str, material: &str, extra: &str) -> String {
    format!(
        r#"[problem]
name = "{body}"
dimension = {dim}
[time]
dt = 0.01
end = 0.02
[mesh]
file = "{file}"
[[body]]
name = "{body}"
group = "{body}"
material = {{ model = "{material}", young = 1000.0, poisson = 0.3, density = 1.0 }}
{extra}"#
    )
}

#[derive(Clone, Debug)]
pub struct Fixture(Table);

impl Fixture {
    /// `tests/common/models/NAME.toml`.
    pub fn load(name: &str) -> Fixture {
        Fixture::file(&format!("tests/common/models/{name}.toml"))
    }

    /// A TOML model anywhere in the repository (`validation/…/case.toml`).
    pub fn file(path: &str) -> Fixture {
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        Fixture::parse(&text)
    }

    pub fn parse(text: &str) -> Fixture {
        Fixture(text.parse().unwrap_or_else(|e| panic!("fixture: {e}")))
    }

    /// Sets the key at `path` (tables are created where missing).
    pub fn set(mut self, path: &str, value: impl Into<Value>) -> Fixture {
        let (parent, last) = self.parent(path);
        match parent {
            Value::Table(t) => {
                t.insert(last.to_string(), value.into());
            }
            Value::Array(a) => {
                let i: usize = last.parse().expect("an array index");
                a[i] = value.into();
            }
            _ => panic!("fixture: {path}: not a table"),
        }
        self
    }

    /// Sets the key at `path` to a TOML value written out
    /// (`"{ point = [0.0, 0.0], normal = [0.0, 1.0] }"`).
    pub fn set_toml(self, path: &str, value: &str) -> Fixture {
        let t: Table = format!("v = {value}")
            .parse()
            .unwrap_or_else(|e| panic!("fixture: {value}: {e}"));
        self.set(path, t["v"].clone())
    }

    /// Removes the key at `path` (a whole table or array of tables too:
    /// `remove("boundary")`).
    pub fn remove(mut self, path: &str) -> Fixture {
        if !path.contains('.') {
            assert!(self.0.remove(path).is_some(), "fixture: no {path}");
            return self;
        }
        let (parent, last) = self.parent(path);
        match parent {
            Value::Table(t) => assert!(t.remove(last).is_some(), "fixture: no {path}"),
            Value::Array(a) => {
                a.remove(last.parse::<usize>().expect("an array index"));
            }
            _ => panic!("fixture: {path}: not a table"),
        }
        self
    }

    /// Merges TOML text into the model: its tables into the model's, its
    /// arrays of tables appended (`[[boundary]]`, `[[contact]]`).
    pub fn merge(mut self, text: &str) -> Fixture {
        let add: Table = text
            .parse()
            .unwrap_or_else(|e| panic!("fixture merge: {e}"));
        merge(&mut self.0, add);
        self
    }

    /// The value at `path` (a top-level key, or a dotted path).
    pub fn get(&self, path: &str) -> &Value {
        let mut v = self.0.get(path.split('.').next().unwrap()).expect(path);
        for seg in path.split('.').skip(1) {
            v = match v {
                Value::Table(t) => t.get(seg),
                Value::Array(a) => seg.parse::<usize>().ok().and_then(|i| a.get(i)),
                _ => None,
            }
            .unwrap_or_else(|| panic!("fixture: no {path}"));
        }
        v
    }

    pub fn text(&self) -> String {
        toml::to_string(&self.0).unwrap()
    }

    /// The table or array holding the last segment of `path` (at least two
    /// segments: every key of a model lives in a table).
    fn parent<'a>(&mut self, path: &'a str) -> (&mut Value, &'a str) {
        let segs: Vec<&str> = path.split('.').collect();
        let (last, init) = segs.split_last().unwrap();
        assert!(!init.is_empty(), "fixture: {path}: name its table");
        let mut cur = self
            .0
            .entry(init[0].to_string())
            .or_insert_with(|| Value::Table(Table::new()));
        for seg in &init[1..] {
            cur = match cur {
                Value::Table(t) => t
                    .entry(seg.to_string())
                    .or_insert_with(|| Value::Table(Table::new())),
                Value::Array(a) => &mut a[seg.parse::<usize>().expect("an array index")],
                _ => panic!("fixture: {path}: not a table"),
            };
        }
        (cur, last)
    }
}

impl std::fmt::Display for Fixture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text())
    }
}

fn merge(into: &mut Table, add: Table) {
    for (k, v) in add {
        match (into.get_mut(&k), v) {
            (Some(Value::Table(a)), Value::Table(b)) => merge(a, b),
            (Some(Value::Array(a)), Value::Array(b)) => a.extend(b),
            (_, v) => {
                into.insert(k, v);
            }
        }
    }
}
