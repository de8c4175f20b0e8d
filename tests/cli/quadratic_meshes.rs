//! Second-order Gmsh meshes through the reader, the command line and the VTK
//! output: the four file formats read alike and as Gmsh describes them;
//! bad second-order meshes exit 2 naming the mesh file and the Gmsh element
//! and node tags; a contact surface of quadratic faces is accepted, one
//! mixing orders refused; VTK's own
//! reader interpolates our quadratic cells as we do (curved), and the nodal
//! stress point data are the averages they claim to be.

use crate::common::fixture::{on_mesh_file, Fixture};
use crate::common::run::{emcontact, printed, run_text};
use emcontact::fe::{ElementKind, MAX_NODES};
use emcontact::mesh::{self, Mesh};
use emcontact::output::{write_vtu, Frame};
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

fn manifest() -> toml::Value {
    toml::from_str(&std::fs::read_to_string(repo("meshes/quadratic.toml")).unwrap()).unwrap()
}

/// Every second-order model of `meshes/quadratic.toml`, in every format it
/// was written in, reads to the same mesh (nodes, groups, elements, Gmsh
/// tags), with Gmsh's node count, element kinds and counts, and group
/// measures equal to those Gmsh integrates (1e-10).
#[test]
fn formats_agree_with_gmsh() {
    let doc = manifest();
    for m in doc["mesh"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        let dim = m["dim"].as_integer().unwrap() as usize;
        let mut first: Option<Mesh> = None;
        for f in m["files"].as_array().unwrap() {
            let file = f.as_str().unwrap();
            let mesh = mesh::read(&repo("meshes").join(file), dim).unwrap();
            assert_eq!(
                mesh.nodes.len() as i64,
                m["nodes"].as_integer().unwrap(),
                "{file}"
            );
            mesh.check_elements().unwrap();
            for g in m["group"].as_array().unwrap() {
                let gname = g["name"].as_str().unwrap();
                let ours = mesh
                    .group(gname)
                    .unwrap_or_else(|| panic!("{file}: no group {gname}"));
                assert_eq!(ours.dim as i64, g["dim"].as_integer().unwrap());
                for (kind, count) in g["kinds"].as_table().unwrap() {
                    let n = ours
                        .elements
                        .iter()
                        .filter(|e| e.kind.name() == kind)
                        .count();
                    assert_eq!(
                        n as i64,
                        count.as_integer().unwrap(),
                        "{file} {gname} {kind}"
                    );
                }
                assert_eq!(ours.tags.len(), ours.elements.len(), "{file}: element tags");
                let want = g["measure"].as_float().unwrap();
                let got = mesh.group_measure(gname).unwrap();
                // the arc length of a curved line3 integrates the square root
                // of a polynomial, which neither our 3-point Gauss rule nor
                // Gmsh's Gauss6 does exactly; areas and volumes (det J a
                // polynomial) agree to round-off
                let tol = if ours.dim == 1 { 1e-6 } else { 1e-10 };
                assert!(
                    (got - want).abs() < tol * want,
                    "{file} {gname}: measure {got} vs Gmsh {want}"
                );
            }
            match &first {
                None => first = Some(mesh),
                Some(f0) => {
                    // the same elements, node tags and element tags; the same
                    // coordinates up to ASCII's 16 printed digits
                    assert_eq!(f0.groups, mesh.groups, "{name}: {file} has other groups");
                    assert_eq!(f0.node_tags, mesh.node_tags, "{name}: {file}");
                    for (a, b) in f0.nodes.iter().zip(&mesh.nodes) {
                        assert!(
                            (0..3).all(|k| (a[k] - b[k]).abs() < 1e-14),
                            "{name}: {file}: {a:?} vs {b:?}"
                        );
                    }
                }
            }
        }
    }
}

/// A 2D SVK body on the group `ring` of the mesh file `mesh_file`, one
/// step of Δt = 0.01 to 0.02, with `extra` appended (its body keys first).
fn ring_model(mesh_file: &str, extra: &str) -> String {
    on_mesh_file(2, mesh_file, "ring", "svk", extra)
}

/// `check` on a model of the ring mesh `mesh_text` (written as
/// `ring.msh`) with `extra` appended to the input.
fn check_ring(mesh_text: &str, extra: &str) -> (Option<i32>, String, PathBuf, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mesh = dir.path().join("ring.msh");
    std::fs::write(&mesh, mesh_text).unwrap();
    let input = dir.path().join("ring.toml");
    std::fs::write(&input, ring_model("ring.msh", extra)).unwrap();
    let o = emcontact(&["check", input.to_str().unwrap()]);
    (o.status.code(), printed(&o), mesh, dir)
}

/// The lines of the `$Elements` section of an MSH 2.2 ASCII file: (index
/// in `lines`, fields).
fn element_lines(lines: &[String]) -> Vec<(usize, Vec<String>)> {
    let start = lines.iter().position(|l| l == "$Elements").unwrap() + 2;
    let end = lines.iter().position(|l| l == "$EndElements").unwrap();
    (start..end)
        .map(|i| (i, lines[i].split_whitespace().map(str::to_string).collect()))
        .collect()
}

fn ring_lines() -> Vec<String> {
    std::fs::read_to_string(repo("meshes/ring_tri6.msh22.msh"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// A tri6 written with five nodes (an incomplete second-order element):
/// exit 2, naming the mesh file, the line, the Gmsh element tag and what is
/// missing.
#[test]
fn incomplete_second_order_element_is_refused() {
    let mut lines = ring_lines();
    let (i, fields) = element_lines(&lines)
        .into_iter()
        .find(|(_, f)| f[1] == "9")
        .unwrap();
    lines[i] = fields[..fields.len() - 1].join(" ");
    let (code, out, mesh, _dir) = check_ring(&(lines.join("\n") + "\n"), "");
    assert_eq!(code, Some(2), "{out}");
    for want in [
        mesh.to_str().unwrap(),
        &format!("line {}", i + 1),
        &format!("element {}", fields[0]),
        "tri6",
        "needs 6 nodes, found 5",
        "midside node is missing",
    ] {
        assert!(out.contains(want), "missing `{want}` in: {out}");
    }
    assert!(!out.contains("panicked"), "{out}");
}

/// A midside node moved across its element folds it: exit 2 naming the mesh
/// file, the group, the Gmsh tag of the element and its nodes' Gmsh tags, not
/// 0-based indices.
#[test]
fn folded_second_order_element_names_gmsh_tags() {
    let mut lines = ring_lines();
    let (_, fields) = element_lines(&lines)
        .into_iter()
        .find(|(_, f)| f[1] == "9")
        .unwrap();
    let ntags: usize = fields[2].parse().unwrap();
    let nodes: Vec<&str> = fields[3 + ntags..].iter().map(String::as_str).collect();
    // move midside node 3 (edge 0-1) beyond corner 2
    let start = lines.iter().position(|l| l == "$Nodes").unwrap() + 2;
    let coord = |lines: &[String], tag: &str| -> (usize, [f64; 3]) {
        let i = (start..)
            .find(|&i| lines[i].split_whitespace().next() == Some(tag))
            .unwrap();
        let v: Vec<f64> = lines[i]
            .split_whitespace()
            .skip(1)
            .map(|s| s.parse().unwrap())
            .collect();
        (i, [v[0], v[1], v[2]])
    };
    let (_, c0) = coord(&lines, nodes[0]);
    let (_, c1) = coord(&lines, nodes[1]);
    let (_, c2) = coord(&lines, nodes[2]);
    let (im, _) = coord(&lines, nodes[3]);
    let far: Vec<f64> = (0..3)
        .map(|k| c2[k] + 1.5 * (c2[k] - 0.5 * (c0[k] + c1[k])))
        .collect();
    lines[im] = format!("{} {} {} {}", nodes[3], far[0], far[1], far[2]);
    let (code, out, mesh, _dir) = check_ring(&(lines.join("\n") + "\n"), "");
    assert_eq!(code, Some(2), "{out}");
    for want in [mesh.to_str().unwrap(), "group \"ring\"", "tri6", "midside"] {
        assert!(out.contains(want), "missing `{want}` in: {out}");
    }
    // the element is named by its Gmsh tag and its nodes by theirs: the
    // named element holds the moved node, and its listed nodes are the ones
    // of its line in the file
    let tag = out
        .split("element ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    let (_, named) = element_lines(&lines)
        .into_iter()
        .find(|(_, f)| f[0] == tag)
        .unwrap();
    let named_nodes = named[3 + ntags..].join(" ");
    assert!(
        named_nodes.split(' ').any(|t| t == nodes[3]),
        "{tag} does not hold the moved node: {out}"
    );
    assert!(
        out.contains(&format!("(tri6, nodes {named_nodes})")),
        "{out}"
    );
    assert!(!out.contains("panicked"), "{out}");
}

const CONTACT: &str = r#"[[contact]]
slave = "outer"
master_plane = { point = [0.0, -2.0], normal = [0.0, 1.0] }
"#;

/// A contact surface of line3 faces is a contact surface: `check` accepts it.
#[test]
fn contact_on_quadratic_faces_is_accepted() {
    let (code, out, _, _dir) = check_ring(&ring_lines().join("\n"), CONTACT);
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("error"), "{out}");
}

/// A pressure on a surface of line3 faces: exit 2 naming the key and
/// saying why (loads are integrated on first-order faces only), never a
/// load silently integrated on the wrong shape functions.
#[test]
fn pressure_on_quadratic_faces_is_refused() {
    let load = "[[load]]\ngroup = \"outer\"\npressure = 1.0\n";
    let (code, out, _, _dir) = check_ring(&ring_lines().join("\n"), load);
    assert_eq!(code, Some(2), "{out}");
    for want in [
        "load[0].pressure",
        "\"outer\" has second-order faces",
        "order 1",
    ] {
        assert!(out.contains(want), "missing {want:?} in: {out}");
    }
}

/// A contact surface mixing line2 and line3 faces: exit 2, naming the mesh
/// file, the key and its line, the group, the mix and both elements' Gmsh
/// tags.
#[test]
fn contact_surface_mixing_orders_is_refused() {
    let mut lines = ring_lines();
    let outer_tag = {
        let i = lines.iter().position(|l| l == "$PhysicalNames").unwrap();
        lines[i + 2..]
            .iter()
            .find(|l| l.ends_with("\"outer\""))
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string()
    };
    let (i, f) = element_lines(&lines)
        .into_iter()
        .find(|(_, f)| f[1] == "8" && f[3] == outer_tag)
        .unwrap();
    // the same edge as a line2 (its midside node dropped)
    let mut g = f.clone();
    g[1] = "1".into();
    g.pop();
    lines[i] = g.join(" ");
    let (code, out, mesh, _dir) = check_ring(&(lines.join("\n") + "\n"), CONTACT);
    assert_eq!(code, Some(2), "{out}");
    for want in [
        mesh.to_str().unwrap(),
        "contact[0].slave",
        "line 14",
        "group \"outer\"",
        "mixes orders",
        "line2 faces and line3 faces",
        &format!("element {}", f[0]),
        "one order",
    ] {
        assert!(out.contains(want), "missing `{want}` in: {out}");
    }
    assert!(!out.contains("panicked"), "{out}");
}

/// A body mixing tri3 and tri6 is refused (its midside nodes would hang):
/// exit 2 naming the file, the group and both elements' Gmsh tags.
#[test]
fn body_mixing_orders_is_refused() {
    let mut lines = ring_lines();
    let tris: Vec<(usize, Vec<String>)> = element_lines(&lines)
        .into_iter()
        .filter(|(_, f)| f[1] == "9")
        .collect();
    let (i, f) = &tris[3];
    let mut g = f.clone();
    g[1] = "2".into();
    g.truncate(g.len() - 3);
    lines[*i] = g.join(" ");
    let (code, out, mesh, _dir) = check_ring(&(lines.join("\n") + "\n"), "");
    assert_eq!(code, Some(2), "{out}");
    for want in [
        mesh.to_str().unwrap(),
        "group \"ring\" mixes orders",
        &format!("element {}", tris[0].1[0]),
        &format!("element {}", f[0]),
        "tri3",
    ] {
        assert!(out.contains(want), "missing `{want}` in: {out}");
    }
}

/// `python3` with VTK; a missing module fails the test.
fn python_vtk() -> Command {
    crate::common::python::python(&["vtk"])
}

/// VTK parametric coordinates of a Gmsh reference point.
fn vtk_pcoords(kind: ElementKind, xi: [f64; 3]) -> [f64; 3] {
    if kind.is_simplex() && kind.ref_dim() > 1 {
        xi
    } else {
        std::array::from_fn(|k| {
            if k < kind.ref_dim() {
                0.5 * (xi[k] + 1.0)
            } else {
                0.0
            }
        })
    }
}

/// Every second-order mesh written as VTK quadratic cells: VTK's own reader
/// sees the right cell types, and at interior points and at the quarter
/// points of the edges its interpolation of each cell (in VTK's node order)
/// is ours (in Gmsh's); on the rings the boundary edges are circular arcs,
/// so the quarter points lie off the chords: VTK draws the cells curved.
#[test]
fn vtk_reads_our_quadratic_cells_curved() {
    let mut py = python_vtk();
    let dir = tempfile::tempdir().unwrap();
    let mut probes = String::new();
    let mut off_chord: f64 = 0.0;
    let mut cells = Vec::new();
    let mut points: Vec<[f64; 3]> = Vec::new();
    for (file, dim, body) in [
        ("ring_tri6.msh41.msh", 2, "ring"),
        ("ring_quad8.msh41.msh", 2, "ring"),
        ("ring_quad9.msh41.msh", 2, "ring"),
        ("block_tet10.msh41.msh", 3, "block"),
        ("block_hex20.msh41.msh", 3, "block"),
        ("block_hex27.msh41.msh", 3, "block"),
    ] {
        let m = mesh::read(&repo("meshes").join(file), dim).unwrap();
        let offset = points.len();
        // shift each mesh apart so every probe is distinct
        let shift = 3.0 * cells.len() as f64;
        points.extend(m.nodes.iter().map(|p| [p[0] + shift, p[1], p[2]]));
        for g in [body, if dim == 2 { "outer" } else { "zmax" }] {
            for e in &m.group(g).unwrap().elements {
                let nodes: Vec<usize> = e.nodes().iter().map(|&a| a + offset).collect();
                let kind = e.kind;
                let id = cells.len();
                cells.push(emcontact::mesh::Element::new(kind, &nodes));
                let x: Vec<[f64; 3]> = nodes.iter().map(|&a| points[a]).collect();
                let mut at: Vec<[f64; 3]> =
                    kind.quadrature().iter().take(3).map(|q| q.xi).collect();
                if kind == ElementKind::Line3 {
                    at.extend([[-0.5, 0.0, 0.0], [0.5, 0.0, 0.0]]);
                }
                for xi in at {
                    let mut n = [0.0; MAX_NODES];
                    let mut dn = [[0.0; 3]; MAX_NODES];
                    kind.shape(&xi, &mut n, &mut dn);
                    let p: [f64; 3] =
                        std::array::from_fn(|i| (0..x.len()).map(|a| n[a] * x[a][i]).sum());
                    let r = vtk_pcoords(kind, xi);
                    probes += &format!(
                        "{id} {} {} {} {} {} {} {}\n",
                        kind.vtk_type(),
                        r[0],
                        r[1],
                        r[2],
                        p[0],
                        p[1],
                        p[2]
                    );
                    if kind == ElementKind::Line3 {
                        // distance of the probe from the chord of the edge
                        let (a, b) = (x[0], x[1]);
                        let t = [b[0] - a[0], b[1] - a[1]];
                        let l = (t[0] * t[0] + t[1] * t[1]).sqrt();
                        off_chord =
                            off_chord.max(((p[0] - a[0]) * t[1] - (p[1] - a[1]) * t[0]).abs() / l);
                    }
                }
            }
        }
    }
    assert!(
        off_chord > 1e-3,
        "the ring's boundary edges are not curved: {off_chord}"
    );
    let vtu = dir.path().join("quadratic.vtu");
    write_vtu(
        &vtu,
        &Frame {
            points: &points,
            cells: &cells,
            point_data: &[],
            cell_data: &[],
        },
    )
    .unwrap();
    let probe_file = dir.path().join("probes.txt");
    std::fs::write(&probe_file, &probes).unwrap();
    let o = py
        .arg(repo("tests/cli/check_quadratic_vtk.py"))
        .arg(&vtu)
        .arg(&probe_file)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    println!("{out}");
    assert!(o.status.success(), "{out}");
    assert!(out.contains("probes pass"), "{out}");
}

/// The nodal stress point data of a run: at every node the reference-volume
/// weighted average of the element stresses there; on tet4 (constant stress
/// per element) that is the average of the adjacent cells' `stress` cell
/// data, which VTK's reader and cell-size filter recompute independently;
/// `von_mises` is `√(3/2 s:s)` of the nodal stress.
#[test]
fn nodal_stress_point_data_are_averages() {
    let mut py = python_vtk();
    // the 3D block as tet4, spinning
    let spin = Fixture::load("block_3d")
        .set("problem.name", "spin")
        .set("time.dt", 0.05)
        .set("time.end", 0.1)
        .set("output.every", 2)
        .set("mesh.generate.0.max", vec![1.0, 0.6, 0.4])
        .set("mesh.generate.0.divisions", vec![3, 2, 2])
        .set("mesh.generate.0.element", "tet4")
        .set("body.0.angular_velocity", vec![0.0, 0.0, 20.0]);
    let r = run_text(&spin.text(), &[]);
    assert_eq!(r.code(), Some(0), "{}", printed(&r.output));
    let vtu = std::fs::read_dir(r.out())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "vtu"))
        .max()
        .unwrap();
    let script = r#"
import sys, vtk
from vtk.util.numpy_support import vtk_to_numpy as np_
import numpy as np
r = vtk.vtkXMLUnstructuredGridReader(); r.SetFileName(sys.argv[1]); r.Update()
g = r.GetOutput()
ps = np_(g.GetPointData().GetArray("stress")).reshape(-1, 3, 3)
vm = np_(g.GetPointData().GetArray("von_mises"))
cs = np_(g.GetCellData().GetArray("stress")).reshape(-1, 3, 3)
f = vtk.vtkCellSizeFilter(); f.SetInputData(g); f.Update()
vol = np_(f.GetOutput().GetCellData().GetArray("Volume"))
acc = np.zeros_like(ps); w = np.zeros(len(ps))
for c in range(g.GetNumberOfCells()):
    ids = g.GetCell(c).GetPointIds()
    for k in range(ids.GetNumberOfIds()):
        a = ids.GetId(k); acc[a] += vol[c] * cs[c]; w[a] += vol[c]
avg = acc / w[:, None, None]
scale = np.abs(cs).max()
assert scale > 1.0, scale
err = np.abs(avg - ps).max() / scale
s = ps - np.trace(ps, axis1=1, axis2=2)[:, None, None] / 3 * np.eye(3)
vm_err = np.abs(np.sqrt(1.5 * (s * s).sum(axis=(1, 2))) - vm).max() / vm.max()
print(f"nodal average error {err:.2e}, von Mises error {vm_err:.2e}, stress scale {scale:.3e}")
sys.exit(0 if err < 1e-10 and vm_err < 1e-12 else 1)
"#;
    let o = py.arg("-c").arg(script).arg(&vtu).output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    println!("{out}");
    assert!(o.status.success(), "{out}");
}

/// A quadratic run writes its frames: the curved ring of quad9 in free
/// flight, `stress` and `von_mises` point data finite at every node.
#[test]
fn quadratic_run_writes_stress_point_data() {
    let mesh = repo("meshes/ring_quad9.msh41b.msh");
    let r = run_text(
        &ring_model(&mesh.display().to_string(), "angular_velocity = 5.0\n"),
        &[],
    );
    assert_eq!(r.code(), Some(0), "{}", printed(&r.output));
    let out_dir = r.out();
    let last = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "vtu"))
        .max()
        .unwrap();
    let text = std::fs::read_to_string(&last).unwrap();
    assert!(
        text.contains("Name=\"von_mises\""),
        "no von_mises in {}",
        last.display()
    );
    assert!(text.contains("types"), "{}", last.display());
    let vtk = vtkio::Vtk::import(&last).unwrap();
    let vtkio::model::DataSet::UnstructuredGrid { pieces, .. } = vtk.data else {
        panic!()
    };
    let vtkio::model::Piece::Inline(p) = &pieces[0] else {
        panic!()
    };
    assert!(
        p.cells.types.iter().all(|t| *t as u8 == 28),
        "quad9 → VTK_BIQUADRATIC_QUAD"
    );
    let vm = p
        .data
        .point
        .iter()
        .find_map(|a| match a {
            vtkio::model::Attribute::DataArray(d) if d.name == "von_mises" => {
                d.data.clone().into_vec::<f64>()
            }
            _ => None,
        })
        .unwrap();
    assert!(
        vm.iter().all(|v| v.is_finite()) && vm.iter().any(|v| *v > 0.0),
        "{vm:?}"
    );
}
