//! Built-in generators and `Mesh::append`: counts, exact areas/volumes,
//! positive elements, outward and conforming boundary faces, error texts.
use emcontact::fe::ElementKind;
use emcontact::mesh::generate::{ball, box_mesh, disk, disk_mesh_area, ring, ring_mesh_area};
use emcontact::mesh::{Mesh, MeshError};
use std::collections::HashMap;
use std::f64::consts::PI;

use crate::common::geom::{area_normal, centroid, dot, face_flux, local_faces, sub, V};

/// The boundary checks every generator must pass:
/// * body elements positive (`check_elements`), total measure = `measure`;
/// * the body is conforming: every face is shared by at most two elements, and
///   the faces used once are exactly the faces of the surface groups, each
///   listed once;
/// * every surface face points away from the centroid of its element, and the
///   divergence theorem Σ (x·n) |f| = D · volume holds.
fn check_body(m: &Mesh, body: &str, surfaces: &[&str], measure: f64) {
    m.check_elements().unwrap();
    let v = m.group_measure(body).unwrap();
    assert!(
        (v - measure).abs() < 1e-12 * measure,
        "{body}: measure {v} vs {measure}"
    );
    let mut faces: HashMap<Vec<usize>, (usize, V)> = HashMap::new();
    for e in &m.group(body).unwrap().elements {
        let c = centroid(m, e.nodes());
        for f in local_faces(e.kind) {
            let mut key: Vec<usize> = f.iter().map(|&k| e.nodes()[k]).collect();
            key.sort_unstable();
            faces.entry(key).or_insert((0, c)).0 += 1;
        }
    }
    assert!(
        faces.values().all(|f| f.0 <= 2),
        "{body}: a face is shared by three elements"
    );
    let open = faces.values().filter(|f| f.0 == 1).count();
    let mut listed = 0;
    let mut flux = 0.0;
    let mut seen = std::collections::HashSet::new();
    for s in surfaces {
        let g = m.group(s).unwrap();
        assert_eq!(g.dim, m.dim - 1, "{s}");
        for e in &g.elements {
            let mut key = e.nodes().to_vec();
            key.sort_unstable();
            assert!(seen.insert(key.clone()), "{s}: face listed twice");
            let (count, c) = faces[&key];
            assert_eq!(count, 1, "{s}: face bounds {count} elements");
            let n = area_normal(m, e.nodes());
            assert!(
                dot(n, sub(centroid(m, e.nodes()), c)) > 0.0,
                "{s}: a face points inward"
            );
            flux += face_flux(m, e.nodes());
            listed += 1;
        }
    }
    assert_eq!(
        listed, open,
        "{body}: surface groups do not cover the boundary"
    );
    let d = m.dim as f64;
    assert!(
        (flux - d * v).abs() < 1e-12 * d * v,
        "{body}: divergence theorem {flux} vs {}",
        d * v
    );
}

#[test]
fn box_2d_quad_and_tri() {
    let sides = ["b_xmin", "b_xmax", "b_ymin", "b_ymax"];
    let m = box_mesh("b", &[-1.0, 0.5], &[2.0, 1.5], &[6, 4], ElementKind::Quad4).unwrap();
    assert_eq!(m.dim, 2);
    assert_eq!(m.nodes.len(), 7 * 5);
    assert_eq!(m.group("b").unwrap().elements.len(), 24);
    assert_eq!(m.group("b_xmin").unwrap().elements.len(), 4);
    assert_eq!(m.group("b_ymax").unwrap().elements.len(), 6);
    check_body(&m, "b", &sides, 3.0);
    let m = box_mesh("b", &[-1.0, 0.5], &[2.0, 1.5], &[6, 4], ElementKind::Tri3).unwrap();
    assert_eq!(m.group("b").unwrap().elements.len(), 48);
    check_body(&m, "b", &sides, 3.0);
    assert_eq!(m.group_measure("b_ymin").unwrap(), 3.0);
}

#[test]
fn box_3d_hex_and_tet() {
    let sides = ["c_xmin", "c_xmax", "c_ymin", "c_ymax", "c_zmin", "c_zmax"];
    let (min, max, n) = ([0.5, 0.0, 1.25], [1.5, 1.0, 2.25], [2, 3, 4]);
    let m = box_mesh("c", &min, &max, &n, ElementKind::Hex8).unwrap();
    assert_eq!(m.nodes.len(), 3 * 4 * 5);
    assert_eq!(m.group("c").unwrap().elements.len(), 24);
    assert_eq!(m.group("c_zmax").unwrap().elements.len(), 6);
    assert_eq!(
        m.group("c_xmin").unwrap().elements[0].kind,
        ElementKind::Quad4
    );
    check_body(&m, "c", &sides, 1.0);
    let m = box_mesh("c", &min, &max, &n, ElementKind::Tet4).unwrap();
    assert_eq!(m.group("c").unwrap().elements.len(), 6 * 24);
    assert_eq!(m.group("c_ymin").unwrap().elements.len(), 2 * 8);
    assert_eq!(
        m.group("c_ymin").unwrap().elements[0].kind,
        ElementKind::Tri3
    );
    check_body(&m, "c", &sides, 1.0);
    // Friction-block base of the paper: [0,2]×[0,2]×[0,1].
    let m = box_mesh(
        "base",
        &[0.0; 3],
        &[2.0, 2.0, 1.0],
        &[4, 4, 2],
        ElementKind::Hex8,
    )
    .unwrap();
    assert!((m.group_measure("base_zmax").unwrap() - 4.0).abs() < 1e-14);
}

#[test]
fn ring_area_and_surfaces() {
    // Love & Laursen (2003) §4.1: radius 10, thickness 0.3, 78 × 3 elements.
    let m = ring("r", [10.0, -20.0], 10.0, 0.3, [78, 3]).unwrap();
    assert_eq!(m.nodes.len(), 78 * 4);
    assert_eq!(m.group("r").unwrap().elements.len(), 78 * 3);
    assert_eq!(m.group("r_outer").unwrap().elements.len(), 78);
    assert_eq!(m.group("r_inner").unwrap().elements.len(), 78);
    let exact_mesh = ring_mesh_area(10.0, 0.3, 78);
    // The divergence theorem needs the origin-independent form: shift to the centre.
    let mut centred = m.clone();
    for x in &mut centred.nodes {
        x[0] -= 10.0;
        x[1] += 20.0;
    }
    check_body(&centred, "r", &["r_outer", "r_inner"], exact_mesh);
    check_body(&m, "r", &["r_outer", "r_inner"], exact_mesh);
    // Chord error of the polygons: A/A_exact = sin(2π/n)/(2π/n) ≈ 1 − (2π/n)²/6.
    let analytic = PI * (10.15f64.powi(2) - 9.85f64.powi(2));
    let rel = 1.0 - exact_mesh / analytic;
    let expected = (2.0 * PI / 78.0).powi(2) / 6.0;
    assert!(
        (rel - expected).abs() < 0.01 * expected,
        "area defect {rel} vs {expected}"
    );
    // Inner normals point to the centre, outer ones away from it.
    for (s, sign) in [("r_inner", -1.0), ("r_outer", 1.0)] {
        for e in &m.group(s).unwrap().elements {
            let n = area_normal(&m, e.nodes());
            let c = sub(centroid(&m, e.nodes()), [10.0, -20.0, 0.0]);
            assert!(sign * dot(n, c) > 0.0, "{s}");
        }
    }
}

#[test]
fn disk_area_and_surface() {
    for n in [1, 2, 5, 8] {
        let m = disk("d", [0.3, -0.2], 2.0, n).unwrap();
        let layers = ((2 * n + 2) / 5).max(1);
        assert_eq!(m.group("d").unwrap().elements.len(), n * n + 4 * n * layers);
        assert_eq!(m.nodes.len(), (n + 1) * (n + 1) + 4 * n * layers);
        assert_eq!(m.group("d_outer").unwrap().elements.len(), 4 * n);
        let a = disk_mesh_area(2.0, n);
        check_body(&m, "d", &["d_outer"], a);
        let rel = 1.0 - a / (PI * 4.0);
        let expected = (2.0 * PI / (4 * n) as f64).powi(2) / 6.0;
        // 1 − sin θ/θ with θ = π/(2n): just below θ²/6 (the Taylor bound).
        assert!(
            rel > 0.8 * expected && rel <= expected,
            "n = {n}: area defect {rel} vs {expected}"
        );
        // Outer nodes on the circle.
        for &a in &m.group_nodes("d_outer").unwrap() {
            let x = m.nodes[a];
            let r = ((x[0] - 0.3).powi(2) + (x[1] + 0.2).powi(2)).sqrt();
            assert!((r - 2.0).abs() < 1e-14, "outer node at r = {r}");
        }
    }
}

fn err_text(r: Result<Mesh, MeshError>) -> String {
    match r {
        Err(MeshError::Invalid(s)) => s,
        other => panic!("expected MeshError::Invalid, got {other:?}"),
    }
}

#[test]
fn generator_errors_name_the_problem() {
    let q = ElementKind::Quad4;
    assert!(
        err_text(box_mesh("b", &[0.0, 0.0], &[1.0, 1.0], &[0, 2], q)).contains("divisions[0] is 0")
    );
    assert!(
        err_text(box_mesh("b", &[0.0, 1.0], &[1.0, 1.0], &[2, 2], q))
            .contains("max[1] = 1 must exceed min[1] = 1")
    );
    assert!(
        err_text(box_mesh("b", &[0.0, 0.0], &[1.0, 1.0, 1.0], &[2, 2], q)).contains("same length")
    );
    assert!(err_text(box_mesh("b", &[0.0], &[1.0], &[2], q)).contains("1 coordinates"));
    assert!(err_text(box_mesh("b", &[0.0; 3], &[1.0; 3], &[2; 3], q)).contains("quad4"));
    assert!(err_text(box_mesh(
        "b",
        &[0.0; 2],
        &[1.0; 2],
        &[2; 2],
        ElementKind::Hex8
    ))
    .contains("hex8"));
    assert!(err_text(box_mesh("b", &[0.0; 2], &[f64::NAN, 1.0], &[2; 2], q)).contains("max[0]"));
    assert!(err_text(ring("r", [0.0; 2], 1.0, 2.0, [8, 2])).contains("thickness"));
    assert!(err_text(ring("r", [0.0; 2], -1.0, 0.1, [8, 2])).contains("radius"));
    assert!(err_text(ring("r", [0.0; 2], 1.0, 0.1, [2, 2])).contains("around"));
    assert!(err_text(ring("r", [0.0; 2], 1.0, 0.1, [8, 0])).contains("thickness is 0"));
    assert!(err_text(disk("d", [0.0; 2], 1.0, 0)).contains("divisions is 0"));
    assert!(err_text(disk("d", [f64::INFINITY, 0.0], 1.0, 3)).contains("centre"));
}

#[test]
fn append_offsets_nodes_and_rejects_clashes() {
    let a = ring("ring1", [0.0, 0.0], 10.0, 0.3, [78, 3]).unwrap();
    let b = ring("ring2", [10.0, -20.0], 10.0, 0.3, [78, 3]).unwrap();
    let mut model = Mesh::default();
    assert_eq!(model.append(a.clone()).unwrap(), 0);
    assert_eq!(model.dim, 2);
    let off = model.append(b.clone()).unwrap();
    assert_eq!(off, a.nodes.len());
    assert_eq!(model.nodes.len(), 2 * a.nodes.len());
    assert_eq!(model.groups.len(), 6);
    let g2 = model.group("ring2").unwrap();
    for (e, f) in g2.elements.iter().zip(&b.group("ring2").unwrap().elements) {
        let shifted: Vec<usize> = f.nodes().iter().map(|n| n + off).collect();
        assert_eq!(e.nodes(), shifted.as_slice());
        assert_eq!(model.nodes[e.nodes()[0]], b.nodes[f.nodes()[0]]);
    }
    model.check_elements().unwrap();
    let before = model.clone();
    let err = model.append(b).unwrap_err().to_string();
    assert!(err.contains("\"ring2\" is already taken"), "{err}");
    assert_eq!(
        model, before,
        "a failed append must leave the mesh unchanged"
    );
    let cube = box_mesh("cube", &[0.0; 3], &[1.0; 3], &[1; 3], ElementKind::Hex8).unwrap();
    assert!(model
        .append(cube)
        .unwrap_err()
        .to_string()
        .contains("3D mesh to a 2D mesh"));
}

#[test]
fn check_elements_catches_a_flipped_generated_element() {
    for kind in [ElementKind::Quad4, ElementKind::Tri3] {
        let mut m = box_mesh("p", &[0.0; 2], &[1.0; 2], &[3, 3], kind).unwrap();
        m.groups[0].elements[4].nodes_mut().swap(0, 1);
        let err = m.check_elements().unwrap_err().to_string();
        assert!(
            err.contains("\"p\"") && err.contains("element 4") && err.contains("inverted"),
            "{err}"
        );
    }
    for kind in [ElementKind::Hex8, ElementKind::Tet4] {
        let mut m = box_mesh("p", &[0.0; 3], &[1.0; 3], &[2, 2, 2], kind).unwrap();
        m.groups[0].elements[7].nodes_mut().swap(0, 1);
        let err = m.check_elements().unwrap_err().to_string();
        assert!(
            err.contains("element 7") && err.contains("inverted"),
            "{err}"
        );
    }
    // A hex whose top face is twisted has a negative corner Jacobian only at
    // some corners (the signed volume stays positive).
    let mut m = box_mesh("h", &[0.0; 3], &[1.0; 3], &[1, 1, 1], ElementKind::Hex8).unwrap();
    let e = m.groups[0].elements[0];
    let (n6, n4) = (e.nodes()[6], e.nodes()[4]);
    m.nodes[n6] = [-0.2, -0.2, 1.0];
    m.nodes[n4] = [1.2, 1.2, 1.0];
    let err = m.check_elements().unwrap_err().to_string();
    assert!(
        err.contains("element 0") && err.contains("inverted"),
        "{err}"
    );
}

/// Random affine maps `x ↦ A x + b`: with det A > 0 every element stays valid
/// and the measure scales by det A (exact for these straight-sided elements);
/// with det A < 0 (a reflection) every element is inverted.
#[test]
fn affine_maps_scale_measure_and_reflections_invert() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let meshes = [
        (
            box_mesh("m", &[0.0; 2], &[1.0; 2], &[3, 2], ElementKind::Quad4).unwrap(),
            1.0,
        ),
        (
            box_mesh("m", &[0.0; 2], &[1.0; 2], &[3, 2], ElementKind::Tri3).unwrap(),
            1.0,
        ),
        (
            box_mesh("m", &[0.0; 3], &[1.0; 3], &[2, 2, 3], ElementKind::Hex8).unwrap(),
            1.0,
        ),
        (
            box_mesh("m", &[0.0; 3], &[1.0; 3], &[2, 2, 3], ElementKind::Tet4).unwrap(),
            1.0,
        ),
        (disk("m", [0.0; 2], 1.0, 4).unwrap(), disk_mesh_area(1.0, 4)),
    ];
    for (mesh, measure) in &meshes {
        for trial in 0..20 {
            let d = mesh.dim;
            let mut a = [[0.0; 3]; 3];
            for (i, row) in a.iter_mut().enumerate() {
                for (j, v) in row.iter_mut().enumerate() {
                    *v = if i < d && j < d {
                        rng.gen_range(-1.0..1.0) + if i == j { 2.0 } else { 0.0 }
                    } else {
                        (i == j) as u8 as f64
                    };
                }
            }
            if trial % 2 == 1 {
                a[0] = a[0].map(|v| -v); // reflection
            }
            let det = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
                - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
            let mut m = mesh.clone();
            for x in &mut m.nodes {
                let y = *x;
                for (xi, row) in x.iter_mut().zip(&a) {
                    *xi = row[0] * y[0] + row[1] * y[1] + row[2] * y[2] + 0.3;
                }
                if d == 2 {
                    x[2] = 0.0;
                }
            }
            let v = m.group_measure("m").unwrap();
            assert!(
                (v - measure * det.abs()).abs() < 1e-12 * v,
                "measure {v} vs {}",
                measure * det.abs()
            );
            if det > 0.0 {
                m.check_elements().unwrap();
            } else {
                let err = m.check_elements().unwrap_err().to_string();
                assert!(
                    err.contains("element 0") && err.contains("inverted"),
                    "{err}"
                );
            }
        }
    }
}

#[test]
fn ball_volume_converges_and_surface_is_outward() {
    let r = 0.021; // golf ball radius [m]
    let exact = 4.0 / 3.0 * PI * r * r * r;
    let mut errors = Vec::new();
    for n in [2, 4, 8] {
        let m = ball("g", [0.1, 0.2, -0.3], r, n).unwrap();
        let layers = ((2 * n + 2) / 5).max(1);
        let n_body = m.group("g").unwrap().elements.len();
        assert_eq!(n_body, n * n * n + 6 * n * n * layers);
        assert_eq!(m.group("g_outer").unwrap().elements.len(), 6 * n * n);
        assert_eq!(
            m.nodes.len(),
            (n + 1).pow(3) + layers * ((n + 1).pow(3) - (n - 1).pow(3))
        );
        for &a in &m.group_nodes("g_outer").unwrap() {
            let d = sub(m.nodes[a], [0.1, 0.2, -0.3]);
            assert!(
                (dot(d, d).sqrt() - r).abs() < 1e-15,
                "outer node off the sphere"
            );
        }
        let v = m.group_measure("g").unwrap();
        // Conforming, positive, outward, divergence theorem (checked against v itself).
        check_body(&m, "g", &["g_outer"], v);
        errors.push((exact - v) / exact);
    }
    // Bilinear faces inscribed in the sphere: volume below the exact one, error O(h²).
    assert!(errors.iter().all(|&e| e > 0.0), "{errors:?}");
    for w in errors.windows(2) {
        let rate = w[0] / w[1];
        assert!(
            rate > 3.0 && rate < 5.0,
            "convergence rate {rate} (errors {errors:?})"
        );
    }
    // A flat face of angular size θ = π/(2n) on the sphere cuts off a cap of mean
    // depth ≈ R θ²/8 (half the sagitta at the half-diagonal θ/√2), so the relative
    // deficit is ≈ 3 θ²/8 (n = 8: 1.4 %).
    for (&n, e) in [2usize, 4, 8].iter().zip(&errors).skip(1) {
        let theta = PI / (2.0 * n as f64);
        let estimate = 3.0 * theta * theta / 8.0;
        assert!(
            *e > 0.8 * estimate && *e < 1.5 * estimate,
            "n = {n}: {e} vs ≈ {estimate}"
        );
    }
    assert!(err_text(ball("g", [0.0; 3], 0.0, 3)).contains("radius"));
    assert!(err_text(ball("g", [0.0; 3], 1.0, 0)).contains("divisions = 0"));
}

/// The boundary extracted from the body equals the generator's surface groups,
/// face by face with the same orientation (same cyclic node order).
#[test]
fn extracted_boundary_matches_the_generated_surfaces() {
    let cases = [
        box_mesh("b", &[0.0; 2], &[2.0, 1.0], &[4, 3], ElementKind::Quad4).unwrap(),
        box_mesh("b", &[0.0; 2], &[2.0, 1.0], &[4, 3], ElementKind::Tri3).unwrap(),
        box_mesh(
            "b",
            &[0.0; 3],
            &[2.0, 1.0, 1.0],
            &[2, 3, 2],
            ElementKind::Hex8,
        )
        .unwrap(),
        box_mesh(
            "b",
            &[0.0; 3],
            &[2.0, 1.0, 1.0],
            &[2, 3, 2],
            ElementKind::Tet4,
        )
        .unwrap(),
        ring("b", [0.0; 2], 1.0, 0.2, [12, 2]).unwrap(),
        disk("b", [0.0; 2], 1.0, 3).unwrap(),
        ball("b", [0.0; 3], 1.0, 3).unwrap(),
    ];
    // Canonical form of a face: its node cycle rotated to start at the smallest index.
    let canon = |v: &[usize]| {
        let i = (0..v.len()).min_by_key(|&i| v[i]).unwrap();
        let mut c = v[i..].to_vec();
        c.extend_from_slice(&v[..i]);
        c
    };
    for mut m in cases {
        let mut generated: Vec<Vec<usize>> = m
            .groups
            .iter()
            .filter(|g| g.dim + 1 == m.dim)
            .flat_map(|g| g.elements.iter().map(|e| canon(e.nodes())))
            .collect();
        let n = m.add_boundary_group("b", "skin").unwrap();
        let mut extracted: Vec<Vec<usize>> = m
            .group("skin")
            .unwrap()
            .elements
            .iter()
            .map(|e| canon(e.nodes()))
            .collect();
        assert_eq!(n, generated.len());
        generated.sort();
        extracted.sort();
        assert_eq!(extracted, generated);
        assert!(m
            .add_boundary_group("b", "skin")
            .unwrap_err()
            .to_string()
            .contains("already taken"));
        assert!(m
            .add_boundary_group("skin", "x")
            .unwrap_err()
            .to_string()
            .contains("not a body"));
    }
}
