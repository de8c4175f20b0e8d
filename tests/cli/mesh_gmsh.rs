//! Gmsh reader: the committed meshes in all four formats (MSH 2.2 / 4.1, ASCII /
//! binary) read to the same `Mesh`, which matches what Gmsh and meshio report
//! (meshes/manifest.toml, written by meshes/make_meshes.py); hand-written files
//! for sparse tags, names, byte order and every error path.
use crate::common::geom::{area_normal, centroid, flux, local_faces};
use emcontact::mesh::{parse_gmsh, read_gmsh, Mesh, MeshError};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct Manifest {
    mesh: Vec<Model>,
}

#[derive(Deserialize)]
struct Model {
    name: String,
    dim: usize,
    nodes: usize,
    files: Vec<String>,
    group: Vec<GroupInfo>,
}

#[derive(Deserialize)]
struct GroupInfo {
    name: String,
    dim: usize,
    kinds: BTreeMap<String, usize>,
    measure: f64,
    exact: Option<f64>,
}

fn meshes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("meshes")
}

fn manifest() -> Manifest {
    let text = std::fs::read_to_string(meshes_dir().join("manifest.toml")).unwrap();
    toml::from_str(&text).unwrap()
}

fn read_model(m: &Model) -> Vec<Mesh> {
    m.files
        .iter()
        .map(|f| read_gmsh(&meshes_dir().join(f), m.dim).unwrap_or_else(|e| panic!("{f}: {e}")))
        .collect()
}

#[test]
fn all_formats_read_to_the_same_mesh() {
    for m in manifest().mesh {
        let meshes = read_model(&m);
        let first = &meshes[0];
        for (other, file) in meshes.iter().zip(&m.files).skip(1) {
            assert_eq!(other.dim, first.dim);
            // the same groups of the same elements; the element tags may
            // differ (MSH 2.2 writes an element of two physical groups twice,
            // with two tags)
            let strip = |gs: &[emcontact::mesh::Group]| -> Vec<(String, usize, Vec<emcontact::mesh::Element>)> {
                gs.iter().map(|g| (g.name.clone(), g.dim, g.elements.clone())).collect()
            };
            assert_eq!(
                strip(&other.groups),
                strip(&first.groups),
                "{file}: groups differ from {}",
                m.files[0]
            );
            assert_eq!(other.nodes.len(), first.nodes.len(), "{file}");
            for (a, b) in other.nodes.iter().zip(&first.nodes) {
                for k in 0..3 {
                    // ASCII files print 16 significant digits.
                    assert!(
                        (a[k] - b[k]).abs() <= 1e-15 * (1.0 + b[k].abs()),
                        "{file}: {a:?} vs {b:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn meshes_match_the_gmsh_manifest() {
    for m in manifest().mesh {
        for (mesh, file) in read_model(&m).iter().zip(&m.files) {
            assert_eq!(
                mesh.nodes.len(),
                m.nodes,
                "{} {file}: node count (meshio)",
                m.name
            );
            let mut names: Vec<&str> = mesh.groups.iter().map(|g| g.name.as_str()).collect();
            let mut expected: Vec<&str> = m.group.iter().map(|g| g.name.as_str()).collect();
            names.sort_unstable();
            expected.sort_unstable();
            assert_eq!(names, expected, "{file}: group names");
            for gi in &m.group {
                let g = mesh.group(&gi.name).unwrap();
                assert_eq!(g.dim, gi.dim, "{file}: dim of {}", gi.name);
                let mut kinds = BTreeMap::new();
                for e in &g.elements {
                    *kinds.entry(e.kind.name().to_string()).or_insert(0) += 1;
                }
                assert_eq!(kinds, gi.kinds, "{file}: element kinds of {}", gi.name);
                let meas = mesh.group_measure(&gi.name).unwrap();
                assert!(
                    (meas - gi.measure).abs() <= 1e-12 * gi.measure,
                    "{file}: measure of {} = {meas}, gmsh says {}",
                    gi.name,
                    gi.measure
                );
                if let Some(exact) = gi.exact {
                    assert!(
                        (meas - exact).abs() <= 1e-12 * exact,
                        "{file}: {} = {meas} vs exact {exact}",
                        gi.name
                    );
                }
            }
            mesh.check_elements()
                .unwrap_or_else(|e| panic!("{file}: {e}"));
        }
    }
}

#[test]
fn plate_area_is_the_plate_minus_the_inscribed_hole() {
    let mesh = read_gmsh(&meshes_dir().join("plate_hole.msh41.msh"), 2).unwrap();
    let a = mesh.group_measure("plate").unwrap();
    let exact = 2.0 - std::f64::consts::PI * 0.25 * 0.25;
    // 14 chords on the hole: the polygon misses ≈ (2π/14)²/6 = 3.4 % of the hole.
    let defect = a - exact;
    let expected =
        std::f64::consts::PI * 0.0625 * (2.0 * std::f64::consts::PI / 14.0).powi(2) / 6.0;
    assert!(
        defect > 0.5 * expected && defect < 1.5 * expected,
        "defect {defect}, expected ≈ {expected}"
    );
}

#[test]
fn surfaces_are_outward_and_close_the_body() {
    let cases: [(&str, usize, &str, &[&str]); 4] = [
        (
            "square_tri.msh22b.msh",
            2,
            "square",
            &["left", "right", "bottom", "top"],
        ),
        (
            "plate_hole.msh22.msh",
            2,
            "plate",
            &["left", "right", "bottom", "top", "hole"],
        ),
        (
            "box_tet.msh41b.msh",
            3,
            "block",
            &["xmin", "xmax", "ymin", "ymax", "zmin", "zmax"],
        ),
        ("box_hex.msh41.msh", 3, "column", &["bottom", "top", "side"]),
    ];
    for (file, dim, body, surfaces) in cases {
        let mesh = read_gmsh(&meshes_dir().join(file), dim).unwrap();
        let v = mesh.group_measure(body).unwrap();
        let f = flux(&mesh, surfaces);
        assert!(
            (f - dim as f64 * v).abs() < 1e-12 * v,
            "{file}: flux {f} vs {dim}·{v}"
        );
        // Each face individually points away from the centroid of its element.
        let mut owner: HashMap<Vec<usize>, Vec<[f64; 3]>> = HashMap::new();
        for e in &mesh.group(body).unwrap().elements {
            let c = centroid(&mesh, e.nodes());
            for f in local_faces(e.kind) {
                let mut key: Vec<usize> = f.iter().map(|&k| e.nodes()[k]).collect();
                key.sort_unstable();
                owner.entry(key).or_default().push(c);
            }
        }
        for s in surfaces {
            for e in &mesh.group(s).unwrap().elements {
                let mut key = e.nodes().to_vec();
                key.sort_unstable();
                let cs = &owner[&key];
                assert_eq!(
                    cs.len(),
                    1,
                    "{file}: face of {s} bounds {} elements",
                    cs.len()
                );
                let fc = centroid(&mesh, e.nodes());
                let n = area_normal(&mesh, e.nodes());
                let out = (0..3).map(|k| n[k] * (fc[k] - cs[0][k])).sum::<f64>();
                assert!(out > 0.0, "{file}: a face of {s} points inward");
            }
        }
    }
}

#[test]
fn check_elements_names_a_flipped_element() {
    for (file, dim, body) in [
        ("plate_hole.msh41.msh", 2, "plate"),
        ("box_hex.msh22b.msh", 3, "column"),
    ] {
        let mut mesh = read_gmsh(&meshes_dir().join(file), dim).unwrap();
        let gi = mesh.groups.iter().position(|g| g.name == body).unwrap();
        let v = mesh.groups[gi].elements[17].nodes_mut();
        v.swap(1, 3);
        let tag = mesh.groups[gi].tags[17];
        let err = mesh.check_elements().unwrap_err().to_string();
        assert!(
            err.contains(body)
                && err.contains(&format!("element {tag} "))
                && err.contains("inverted"),
            "{err}"
        );
    }
    // A collapsed tet (all four nodes in a plane) is degenerate, not inverted.
    let mut mesh = read_gmsh(&meshes_dir().join("box_tet.msh41.msh"), 3).unwrap();
    let e = mesh.group("block").unwrap().elements[3];
    let [a, b, c, d] = [e.nodes()[0], e.nodes()[1], e.nodes()[2], e.nodes()[3]];
    let (xa, xb, xc) = (mesh.nodes[a], mesh.nodes[b], mesh.nodes[c]);
    mesh.nodes[d] = [
        (xa[0] + xb[0] + xc[0]) / 3.0,
        (xa[1] + xb[1] + xc[1]) / 3.0,
        (xa[2] + xb[2] + xc[2]) / 3.0,
    ];
    let err = mesh.check_elements().unwrap_err().to_string();
    assert!(err.contains("block") && err.contains("degenerate"), "{err}");
}

// ---------------------------------------------------------------------------
// Hand-written files.

fn parse(text: &str, dim: usize) -> Result<Mesh, MeshError> {
    parse_gmsh(text.as_bytes(), Path::new("test.msh"), dim)
}

/// Two triangles on the unit square with sparse node tags, a named body, an
/// unnamed boundary group, a point element and an element in no group.
const MSH22_SPARSE: &str = "$MeshFormat
2.2 0 8
$EndMeshFormat
$PhysicalNames
1
2 7 \"body\"
$EndPhysicalNames
$Nodes
4
10 0 0 0
20 1 0 0
35 1 1 0
47 0 1 0
$EndNodes
$Elements
5
1 15 2 9 1 10
2 1 2 3 1 10 20
3 1 2 0 2 20 35
5 2 2 7 1 10 20 35
9 2 2 7 1 10 35 47
$EndElements
";

/// The same square in MSH 4.1, its nodes (0,0), (1,0), (1,1), (0,1) tagged
/// `t` and written in that order.
fn msh41_square(t: [u32; 4]) -> String {
    let (min, max) = (t.iter().min().unwrap(), t.iter().max().unwrap());
    let [a, b, c, d] = t;
    format!(
        "$MeshFormat
4.1 0 8
$EndMeshFormat
$PhysicalNames
1
2 7 \"body\"
$EndPhysicalNames
$Entities
0 2 1 0
1 0 0 0 1 0 0 1 3 0
2 1 0 0 1 1 0 0 0
1 0 0 0 1 1 0 1 7 0
$EndEntities
$Nodes
1 4 {min} {max}
2 1 0 4
{a}
{b}
{c}
{d}
0 0 0
1 0 0
1 1 0
0 1 0
$EndNodes
$Elements
3 4 1 11
1 1 1 1
2 {a} {b}
1 2 1 1
3 {b} {c}
2 1 2 2
5 {a} {b} {c}
9 {a} {c} {d}
$EndElements
"
    )
}

/// The square with sparse node tags 10, 20, 35, 47.
fn msh41_sparse() -> String {
    msh41_square([10, 20, 35, 47])
}

/// The same square with contiguous node tags 1..=4 written out of order
/// (mshio drops contiguous tags; the reader must not assume file order).
fn msh41_permuted() -> String {
    msh41_square([2, 1, 3, 4])
}

fn check_sparse(mesh: &Mesh) {
    assert_eq!(mesh.nodes.len(), 4);
    assert_eq!(mesh.nodes[2], [1.0, 1.0, 0.0]);
    let names: Vec<&str> = mesh.groups.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(names, ["body", "physical_3"]);
    let body = mesh.group("body").unwrap();
    assert_eq!(body.dim, 2);
    assert_eq!(body.elements.len(), 2);
    assert_eq!(body.elements[0].nodes(), [0, 1, 2]);
    assert_eq!(body.elements[1].nodes(), [0, 2, 3]);
    let edge = &mesh.group("physical_3").unwrap().elements;
    assert_eq!(edge.len(), 1);
    // The edge 10→20 runs counter-clockwise along y = 0 already.
    assert_eq!(edge[0].nodes(), [0, 1]);
    mesh.check_elements().unwrap();
}

#[test]
fn sparse_tags_names_and_ignored_elements() {
    check_sparse(&parse(MSH22_SPARSE, 2).unwrap());
    check_sparse(&parse(&msh41_sparse(), 2).unwrap());
    check_sparse(&parse(&msh41_permuted(), 2).unwrap());
    // The 3D reading of the same file keeps z and the groups.
    assert_eq!(parse(MSH22_SPARSE, 3).unwrap().groups.len(), 2);
}

#[test]
fn clockwise_plane_meshes_are_renumbered_but_mixed_ones_are_reported() {
    // Both triangles clockwise (a surface with normal −z): renumbered.
    let cw = MSH22_SPARSE
        .replace("5 2 2 7 1 10 20 35", "5 2 2 7 1 10 35 20")
        .replace("9 2 2 7 1 10 35 47", "9 2 2 7 1 10 47 35");
    let mesh = parse(&cw, 2).unwrap();
    let body = &mesh.group("body").unwrap().elements;
    assert_eq!(body[0].nodes(), [0, 1, 2]);
    assert_eq!(body[1].nodes(), [0, 2, 3]);
    mesh.check_elements().unwrap();
    // One clockwise triangle among counter-clockwise ones: an error.
    let mixed = MSH22_SPARSE.replace("5 2 2 7 1 10 20 35", "5 2 2 7 1 10 35 20");
    let err = parse(&mixed, 2)
        .unwrap()
        .check_elements()
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("\"body\": element 5 ") && err.contains("inverted"),
        "{err}"
    );
}

#[test]
fn inward_edges_are_reoriented() {
    // The y = 0 edge written 20 → 10 (clockwise) is flipped to 10 → 20.
    let text = MSH22_SPARSE.replace("2 1 2 3 1 10 20", "2 1 2 3 1 20 10");
    let mesh = parse(&text, 2).unwrap();
    assert_eq!(
        mesh.group("physical_3").unwrap().elements[0].nodes(),
        [0, 1]
    );
}

/// MSH 2.2 binary of the two-triangle square, in either byte order.
fn msh22_binary(big: bool) -> Vec<u8> {
    let i = |v: i32| {
        if big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        }
    };
    let f = |v: f64| {
        if big {
            v.to_be_bytes()
        } else {
            v.to_le_bytes()
        }
    };
    let mut b = b"$MeshFormat\n2.2 1 8\n".to_vec();
    b.extend(i(1));
    b.extend(b"\n$EndMeshFormat\n$PhysicalNames\n1\n2 7 \"body\"\n$EndPhysicalNames\n$Nodes\n4\n");
    for (t, x, y) in [
        (10, 0.0, 0.0),
        (20, 1.0, 0.0),
        (35, 1.0, 1.0),
        (47, 0.0, 1.0),
    ] {
        b.extend(i(t));
        for c in [x, y, 0.0] {
            b.extend(f(c));
        }
    }
    b.extend(b"\n$EndNodes\n$Elements\n3\n");
    for v in [1, 1, 2, 2, 3, 1, 10, 20] {
        b.extend(i(v)); // one line2 with tags (3, 1)
    }
    for v in [2, 2, 2, 5, 7, 1, 10, 20, 35, 9, 7, 1, 10, 35, 47] {
        b.extend(i(v)); // two tri3 with tags (7, 1)
    }
    b.extend(b"\n$EndElements\n");
    b
}

#[test]
fn binary_msh22_in_both_byte_orders() {
    for big in [false, true] {
        let mesh = parse_gmsh(&msh22_binary(big), Path::new("b.msh"), 2).unwrap();
        check_sparse(&mesh);
    }
}

#[test]
fn same_unnamed_tag_in_two_dimensions_gets_the_dimension_in_its_name() {
    let text = MSH22_SPARSE
        .replace("2 7 \"body\"", "2 8 \"other\"")
        .replace(" 2 7 1 ", " 2 3 1 ");
    let mesh = parse(&text, 2).unwrap();
    let names: Vec<&str> = mesh.groups.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(names, ["physical_2d_3", "physical_1d_3"]);
}

fn expect_err(text: &str, dim: usize, needles: &[&str]) {
    let err = parse(text, dim).expect_err("should fail").to_string();
    assert!(
        err.starts_with("test.msh"),
        "error does not name the file: {err}"
    );
    for n in needles {
        assert!(err.contains(n), "`{err}` does not mention `{n}`");
    }
}

#[test]
fn errors_name_the_problem_and_the_line() {
    // Unsupported type inside a physical group: names the type and the group.
    expect_err(
        &MSH22_SPARSE.replace("9 2 2 7 1 10 35 47", "9 9 2 7 1 10 35 47 1 2 3"),
        2,
        &["tri6", "body", "line 21"],
    );
    expect_err(
        &MSH22_SPARSE.replace("1 0 0\n35", "1 x 0\n35"),
        2,
        &["line 11", "bad y coordinate `x`"],
    );
    expect_err(
        &MSH22_SPARSE.replace("$EndNodes\n", ""),
        2,
        &["expected $EndNodes"],
    );
    expect_err(
        &MSH22_SPARSE.replace("10 35 47", "10 35 48"),
        2,
        &["unknown node 48", "line 21"],
    );
    expect_err(
        &MSH22_SPARSE.replace("2.2 0 8", "3.0 0 8"),
        2,
        &["version 3.0", "line 2"],
    );
    expect_err(
        &MSH22_SPARSE.replace("47 0 1 0", "47 0 1 0.5"),
        2,
        &["z = 0.5"],
    );
    expect_err(
        &MSH22_SPARSE.replace("\n4\n10", "\n5\n10"),
        2,
        &["5 nodes announced"],
    );
    expect_err(
        &MSH22_SPARSE.replace("20 1 0 0", "10 1 0 0"),
        2,
        &["node tag 10 appears twice", "line 11"],
    );
    expect_err(&MSH22_SPARSE[..MSH22_SPARSE.len() - 30], 2, &["truncated"]);
    expect_err("", 2, &["$MeshFormat"]);
    expect_err(
        &msh41_permuted().replace("2\n1\n3\n4\n", "2\n1\n3\n3\n"),
        2,
        &["node tag 3 appears twice"],
    );
    expect_err(
        &msh41_sparse().replace("$EndNodes", "$EndNodez"),
        2,
        &["line"],
    );
    expect_err(
        &msh41_sparse().replace("9 10 35 47", "9 10 35 48"),
        2,
        &["unknown node 48"],
    );
    // a 9-node triangle (Gmsh type 20): second order, but not a kind we have
    let tri9 = msh41_sparse().replace(
        "2 1 2 2\n5 10 20 35\n9 10 35 47",
        "2 1 20 1\n5 10 20 35 10 20 35 47 47 47",
    );
    expect_err(
        &tri9,
        2,
        &[
            "element 5 of unsupported type",
            "Gmsh type 20",
            "body",
            "tri6",
        ],
    );
    let three_d = MSH22_SPARSE.replace("1 15 2 9 1 10", "1 4 2 9 1 10 20 35 47");
    expect_err(&three_d, 2, &["tet4", "2D"]);
    assert!(matches!(parse(MSH22_SPARSE, 4), Err(MeshError::Invalid(_))));
    let missing = read_gmsh(Path::new("/nonexistent/x.msh"), 2)
        .unwrap_err()
        .to_string();
    assert!(missing.contains("/nonexistent/x.msh"), "{missing}");
}

/// Truncated prefixes and random byte flips of real files must give `Ok` or
/// `Err`, never a panic.
#[test]
fn mangled_files_never_panic() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    let mut outcomes = [0usize; 2];
    let mut files: Vec<(String, Vec<u8>)> = ["square_tri", "box_hex"]
        .iter()
        .flat_map(|m| ["msh22", "msh22b", "msh41", "msh41b"].map(|f| format!("{m}.{f}.msh")))
        .map(|f| (f.clone(), std::fs::read(meshes_dir().join(&f)).unwrap()))
        .collect();
    files.push(("sparse22".into(), MSH22_SPARSE.as_bytes().to_vec()));
    files.push(("sparse41".into(), msh41_sparse().into_bytes()));
    files.push(("permuted41".into(), msh41_permuted().into_bytes()));
    files.push(("be22".into(), msh22_binary(true)));
    for (name, bytes) in &files {
        let step = (bytes.len() / 150).max(1);
        let mut cut = 0;
        while cut < bytes.len() {
            let r = parse_gmsh(&bytes[..cut], Path::new(name), 2);
            outcomes[r.is_ok() as usize] += 1;
            cut += step;
        }
        for _ in 0..300 {
            let mut b = bytes.clone();
            for _ in 0..rng.gen_range(1..4) {
                let at = rng.gen_range(0..b.len());
                b[at] = match rng.gen_range(0..3) {
                    0 => rng.gen(),
                    1 => b"0123456789 -.e$\n"[rng.gen_range(0..16)],
                    _ => b[at] ^ (1 << rng.gen_range(0..8)),
                };
            }
            let r = parse_gmsh(&b, Path::new(name), 3);
            outcomes[r.is_ok() as usize] += 1;
        }
    }
    // Both outcomes occur: the mangling reaches the parsers and real errors come back.
    assert!(outcomes[0] > 1000 && outcomes[1] > 100, "{outcomes:?}");
}
