//! The top-level modules of `src/` form no import cycle: every
//! `crate::<module>` a file names (outside comments) is an edge from the
//! file's top-level module to that one, and the graph has no cycle. A cycle
//! means two concepts that cannot be read, tested or changed apart.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Edges `module -> modules it names`, from every `.rs` file under `dir`.
fn edges(dir: &Path, top: Option<&str>, out: &mut BTreeMap<String, BTreeSet<String>>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let module = top.map(str::to_string).unwrap_or(name.clone());
        if path.is_dir() {
            edges(&path, Some(&module), out);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs")
            || (top.is_none() && (name == "lib" || name == "main"))
        {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            let code = line.split("//").next().unwrap();
            for (i, _) in code.match_indices("crate::") {
                let target: String = code[i + 7..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !target.is_empty() && target != module {
                    out.entry(module.clone()).or_default().insert(target);
                }
            }
        }
        out.entry(module).or_default();
    }
}

/// A cycle through `v` if there is one (depth-first, `path` the current chain).
fn cycle(
    g: &BTreeMap<String, BTreeSet<String>>,
    v: &str,
    path: &mut Vec<String>,
    done: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    if let Some(i) = path.iter().position(|p| p == v) {
        let mut c = path[i..].to_vec();
        c.push(v.to_string());
        return Some(c);
    }
    if done.contains(v) {
        return None;
    }
    path.push(v.to_string());
    for w in g.get(v).into_iter().flatten() {
        if let Some(c) = cycle(g, w, path, done) {
            return Some(c);
        }
    }
    path.pop();
    done.insert(v.to_string());
    None
}

#[test]
fn the_modules_of_src_import_no_cycle() {
    let mut g = BTreeMap::new();
    edges(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        None,
        &mut g,
    );
    assert!(
        g.contains_key("contact") && g.contains_key("dynamics"),
        "{g:?}"
    );
    assert!(
        g["dynamics"].contains("contact"),
        "the graph is read: {g:?}"
    );
    let mut done = BTreeSet::new();
    for v in g.keys() {
        if let Some(c) = cycle(&g, v, &mut Vec::new(), &mut done) {
            panic!("import cycle: {}", c.join(" -> "));
        }
    }
}
