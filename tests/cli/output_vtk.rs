//! VTK output: `.vtu` round trips through vtkio's reader and through VTK's own
//! XML reader via `validation/check_vtk.py` (python3 with `vtk`: required);
//! `.pvd` content; atomic writes.
use crate::common::python::{check_vtk, python};
use emcontact::fe::ElementKind;
use emcontact::mesh::Element;
use emcontact::output::{write_atomic, write_vtu, Field, Frame, OutputError, Pvd};
use std::path::Path;
use vtkio::model::{Attribute, CellType, DataSet, ElementType, Piece, VertexNumbers, Vtk};

/// Unit cube corners (VTK hex order) plus one awkward point.
fn points() -> Vec<[f64; 3]> {
    vec![
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
        [1.0, 0.0, 1.0],
        [1.0, 1.0, 1.0],
        [0.0, 1.0, 1.0],
        [1.0 / 3.0, -0.0, 1e300],
    ]
}

/// One cell of every kind.
fn cells() -> Vec<Element> {
    vec![
        Element::new(ElementKind::Line2, &[8, 0]),
        Element::new(ElementKind::Tri3, &[0, 1, 2]),
        Element::new(ElementKind::Quad4, &[0, 1, 2, 3]),
        Element::new(ElementKind::Tet4, &[0, 1, 3, 4]),
        Element::new(ElementKind::Hex8, &[0, 1, 2, 3, 4, 5, 6, 7]),
    ]
}

/// Deterministic awkward values: i/7 − 1e-17·i, with a few special ones.
fn values(n: usize, salt: f64) -> Vec<f64> {
    (0..n)
        .map(|i| match i % 5 {
            0 => -0.0,
            1 => 1e-300 * salt,
            _ => (i as f64) / 7.0 * salt - 1e-17 * i as f64,
        })
        .collect()
}

struct Data {
    points: Vec<[f64; 3]>,
    cells: Vec<Element>,
    /// (name, components, values) on points, then on cells.
    point: Vec<(&'static str, usize, Vec<f64>)>,
    cell: Vec<(&'static str, usize, Vec<f64>)>,
}

fn data(salt: f64) -> Data {
    let (np, nc) = (points().len(), cells().len());
    Data {
        points: points(),
        cells: cells(),
        point: vec![
            ("displacement", 3, values(3 * np, salt)),
            ("temperature", 1, values(np, 2.0 * salt)),
            ("pair", 2, values(2 * np, 3.0 * salt)),
        ],
        cell: vec![
            ("stress", 9, values(9 * nc, salt)),
            ("body", 1, (0..nc).map(|i| i as f64).collect()),
            ("quad", 4, values(4 * nc, 5.0 * salt)),
        ],
    }
}

fn write(path: &Path, d: &Data) -> Result<(), OutputError> {
    fn fields<'a>(list: &'a [(&'static str, usize, Vec<f64>)]) -> Vec<Field<'a>> {
        list.iter()
            .map(|(n, c, v)| Field {
                name: n,
                components: *c,
                values: v,
            })
            .collect()
    }
    let (pf, cf) = (fields(&d.point), fields(&d.cell));
    let frame = Frame {
        points: &d.points,
        cells: &d.cells,
        point_data: &pf,
        cell_data: &cf,
    };
    write_vtu(path, &frame)
}

/// Compares vtkio attributes with the expected (name, components, values),
/// bit for bit, and checks the element type tag.
fn assert_attributes(got: &[Attribute], want: &[(&str, usize, Vec<f64>)]) {
    assert_eq!(got.len(), want.len());
    for (a, (name, comps, vals)) in got.iter().zip(want) {
        let Attribute::DataArray(a) = a else {
            panic!("field attribute")
        };
        assert_eq!(a.name, *name);
        assert_eq!(a.elem.num_comp() as usize, *comps, "{name}");
        let expected_elem = match comps {
            1 => matches!(a.elem, ElementType::Scalars { num_comp: 1, .. }),
            3 => a.elem == ElementType::Vectors,
            9 => a.elem == ElementType::Tensors,
            n => a.elem == ElementType::Generic(*n as u32),
        };
        assert!(expected_elem, "{name}: {:?}", a.elem);
        let v: Vec<f64> = a.data.clone().into_vec().expect("Float64 data");
        let bits = |x: &[f64]| x.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&v), bits(vals), "{name}");
    }
}

#[test]
fn vtu_every_kind_round_trips_through_vtkio_bit_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("frame.vtu");
    let d = data(1.0);
    write(&path, &d).unwrap();

    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("format=\"binary\""), "inline base64 expected");
    assert!(!text.contains("compressor=\"vtkZLib") && !text.contains("compressor=\"vtkLZ4"));
    assert!(!text.contains("AppendedData"));
    assert!(text.contains("type=\"Float64\""));

    let vtk = Vtk::import(&path).expect("vtkio reads its own output back");
    let DataSet::UnstructuredGrid { pieces, .. } = vtk.data else {
        panic!("not a grid")
    };
    assert_eq!(pieces.len(), 1);
    let Piece::Inline(piece) = &pieces[0] else {
        panic!("not inline")
    };
    let pts: Vec<f64> = piece.points.clone().into_vec().expect("Float64 points");
    let want: Vec<f64> = d.points.iter().flatten().copied().collect();
    assert_eq!(
        pts.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        want.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
    assert_eq!(
        piece.cells.types,
        vec![
            CellType::Line,
            CellType::Triangle,
            CellType::Quad,
            CellType::Tetra,
            CellType::Hexahedron
        ]
    );
    let (conn, offs) = match piece.cells.cell_verts.clone() {
        VertexNumbers::XML {
            connectivity,
            offsets,
        } => (connectivity, offsets),
        legacy => legacy.into_xml(),
    };
    let want_conn: Vec<u64> = d
        .cells
        .iter()
        .flat_map(|c| c.nodes().iter().map(|&n| n as u64))
        .collect();
    assert_eq!(conn, want_conn);
    assert_eq!(offs, vec![2, 5, 9, 13, 21]);
    assert_attributes(&piece.data.point, &d.point);
    assert_attributes(&piece.data.cell, &d.cell);
}

#[test]
fn vtu_bad_field_length_is_a_format_error_naming_file_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.vtu");
    let mut d = data(1.0);
    d.cell[0].2.pop(); // stress: one value short
    let err = write(&path, &d).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, OutputError::Format { .. }), "{msg}");
    assert!(msg.contains("bad.vtu") && msg.contains("'stress'"), "{msg}");
    assert!(msg.contains("44 values") && msg.contains("45"), "{msg}");
    assert!(
        std::fs::read_dir(dir.path()).unwrap().next().is_none(),
        "nothing written"
    );

    let mut d = data(1.0);
    d.cells.push(Element::new(ElementKind::Line2, &[0, 9]));
    for f in &mut d.cell {
        let extra = vec![0.0; f.1];
        f.2.extend(extra);
    }
    let msg = write(&path, &d).unwrap_err().to_string();
    assert!(
        msg.contains("bad.vtu") && msg.contains("cell 5") && msg.contains("point 9"),
        "{msg}"
    );

    let mut d = data(1.0);
    d.point[1].1 = 0;
    let msg = write(&path, &d).unwrap_err().to_string();
    assert!(msg.contains("'temperature' has 0 components"), "{msg}");
}

#[test]
fn pvd_lists_every_frame_with_round_trip_times() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.pvd");
    let mut pvd = Pvd::new(&path);
    let times = [0.0, 0.1, 1.0 / 3.0, 1e-300, 12345.678901234567];
    for (k, &t) in times.iter().enumerate() {
        pvd.add(t, &format!("frames/run_{k:06}.vtu")).unwrap();
        // Valid after every add: one DataSet per frame so far, closed document.
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.matches("<DataSet ").count(), k + 1);
        assert!(text
            .starts_with("<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\""));
        assert!(text.trim_end().ends_with("</Collection>\n</VTKFile>"));
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let parsed: Vec<(f64, String)> = text
        .lines()
        .filter(|l| l.trim_start().starts_with("<DataSet "))
        .map(|l| {
            let attr = |name: &str| {
                let start = l.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
                l[start..start + l[start..].find('"').unwrap()].to_string()
            };
            assert_eq!(attr("part"), "0");
            (attr("timestep").parse().unwrap(), attr("file"))
        })
        .collect();
    for (k, (t, f)) in parsed.iter().enumerate() {
        assert_eq!(t.to_bits(), times[k].to_bits(), "time {k}");
        assert_eq!(f, &format!("frames/run_{k:06}.vtu"));
    }
    assert!(text.contains("timestep=\"1e-300\""), "{text}");
    assert_eq!(pvd.entries().len(), times.len());

    // Special characters are escaped; a non-finite time is refused.
    pvd.add(2.0, "a&b\"<c>.vtu").unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("file=\"a&amp;b&quot;&lt;c&gt;.vtu\""),
        "{text}"
    );
    let msg = pvd.add(f64::NAN, "x.vtu").unwrap_err().to_string();
    assert!(msg.contains("run.pvd") && msg.contains("NaN"), "{msg}");
    assert_eq!(pvd.entries().len(), times.len() + 1);
    // Only the .pvd itself in the directory: no temporary left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("run.pvd")]);
}

#[test]
fn write_atomic_replaces_content_and_leaves_no_temporary() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data.txt");
    write_atomic(&path, b"old content, longer than the new one").unwrap();
    write_atomic(&path, b"new").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"new");
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("data.txt")]);

    let missing = dir.path().join("no/such/dir/x.txt");
    let err = write_atomic(&missing, b"x").unwrap_err();
    assert!(matches!(err, OutputError::Io { .. }));
    assert!(err.to_string().contains("no/such/dir/x.txt"), "{err}");
}

#[test]
fn vtu_and_pvd_are_read_by_vtk_itself() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("frames")).unwrap();
    let pvd_path = dir.path().join("run.pvd");
    let mut pvd = Pvd::new(&pvd_path);
    for k in 0..3 {
        let file = format!("frames/run_{k:06}.vtu");
        write(&dir.path().join(&file), &data(1.0 + k as f64)).unwrap();
        pvd.add(0.25 * k as f64, &file).unwrap();
    }
    let points = "displacement:3,temperature:1,pair:2";
    let cells = "stress:9,body:1,quad:4";
    let (ok, out) = check_vtk(&pvd_path, points, cells);
    println!("{out}");
    assert!(ok, "{out}");
    assert!(out.contains("3/3 frames pass"), "{out}");

    // VTK's reader sees the same geometry, cell types and values.
    let probe = r#"
import sys, vtk
r = vtk.vtkXMLUnstructuredGridReader(); r.SetFileName(sys.argv[1]); r.Update()
g = r.GetOutput()
print(g.GetNumberOfPoints(), [g.GetCellType(i) for i in range(g.GetNumberOfCells())])
print(repr(g.GetPoint(8)), repr(g.GetCellData().GetArray("stress").GetTuple(4)[8]))
print(g.GetCellData().GetTensors().GetName(), g.GetPointData().GetVectors().GetName(),
      g.GetPointData().GetScalars().GetName())
"#;
    let out = python(&["vtk"])
        .args(["-c", probe])
        .arg(dir.path().join("frames/run_000000.vtu"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "9 [3, 5, 9, 10, 12]", "{text}");
    let stress_last = data(1.0).cell[0].2[44];
    assert_eq!(
        lines[1],
        format!("(0.3333333333333333, -0.0, 1e+300) {stress_last:?}"),
        "{text}"
    );
    assert_eq!(lines[2], "stress displacement temperature", "{text}");

    // The checker does fail: a missing array, a wrong component count, a missing frame.
    let (ok, out) = check_vtk(&pvd_path, "displacement:3,velocity:3", cells);
    assert!(!ok && out.contains("'velocity' missing"), "{out}");
    let (ok, out) = check_vtk(&pvd_path, points, "stress:6");
    assert!(!ok && out.contains("has 9 components, expected 6"), "{out}");
    pvd.add(1.0, "frames/missing.vtu").unwrap();
    let (ok, out) = check_vtk(&pvd_path, points, cells);
    assert!(
        !ok && out.contains("file missing") && out.contains("3/4 frames pass"),
        "{out}"
    );
}
