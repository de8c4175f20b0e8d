//! `.vtu` through crate `vtkio` (uncompressed inline base64: the variant VTK,
//! ParaView, meshio and pyvista all read) and our own `.pvd` writer.
//!
//! File layout written by [`write_vtu`]: `<VTKFile type="UnstructuredGrid"
//! version="1.0" byte_order="LittleEndian" header_type="UInt64">`, one piece,
//! points as a `Float64` array of 3 components, connectivity/offsets as
//! `UInt64`, cell types as `UInt8`, and every field as a `Float64` array with
//! `NumberOfComponents` = the field's `components`. Fields of 1, 3 and 9
//! components are tagged as the active scalars / vectors / tensors (the first
//! of each kind); tensors are 3×3 row-major, as VTK expects. Second-order
//! elements are written as VTK's quadratic cells (VTK_QUADRATIC_EDGE,
//! _TRIANGLE, _QUAD, VTK_BIQUADRATIC_QUAD, VTK_QUADRATIC_TETRA, _HEXAHEDRON,
//! VTK_TRIQUADRATIC_HEXAHEDRON), which ParaView draws curved, with their nodes
//! in VTK's order ([`ElementKind::vtk_order`]: tet10, hex20 and hex27 differ
//! from Gmsh's).
use super::{format_error, write_atomic, Field, Frame, OutputError};
use crate::fe::ElementKind;
use std::path::{Path, PathBuf};
use vtkio::model::{
    Attribute, Attributes, ByteOrder, CellType, Cells, DataArray, DataSet, UnstructuredGridPiece,
    Version, VertexNumbers, Vtk,
};

/// Writes one frame as an XML unstructured grid, atomically.
///
/// Fails with `OutputError::Format` (naming the file and the field or cell)
/// when a field's length is not `count · components`, a field has zero
/// components, or a cell refers to a point that does not exist.
pub fn write_vtu(path: &Path, frame: &Frame) -> Result<(), OutputError> {
    let bytes = render_vtu(path, frame)?;
    write_atomic(path, &bytes)
}

/// The `.vtu` document for `frame`, in memory; `path` only names errors.
pub fn render_vtu(path: &Path, frame: &Frame) -> Result<Vec<u8>, OutputError> {
    let n_points = frame.points.len();
    let n_cells = frame.cells.len();
    check_fields(path, "point", frame.point_data, n_points)?;
    check_fields(path, "cell", frame.cell_data, n_cells)?;

    let mut connectivity = Vec::with_capacity(n_cells * 4);
    let mut offsets = Vec::with_capacity(n_cells);
    let mut types = Vec::with_capacity(n_cells);
    for (i, cell) in frame.cells.iter().enumerate() {
        for &k in cell.kind.vtk_order() {
            let node = cell.nodes()[k];
            if node >= n_points {
                return Err(format_error(
                    path,
                    format!(
                        "cell {i} ({}) refers to point {node}, but there are {n_points} points",
                        cell.kind.name()
                    ),
                ));
            }
            connectivity.push(node as u64);
        }
        offsets.push(connectivity.len() as u64);
        types.push(cell_type(cell.kind));
    }

    let points: Vec<f64> = frame.points.iter().flatten().copied().collect();
    let piece = UnstructuredGridPiece {
        points: points.into(),
        cells: Cells {
            cell_verts: VertexNumbers::XML {
                connectivity,
                offsets,
            },
            types,
        },
        data: Attributes {
            point: frame.point_data.iter().map(attribute).collect(),
            cell: frame.cell_data.iter().map(attribute).collect(),
        },
    };
    let vtk = Vtk {
        // Version ≥ 1.0 is what tells VTK's reader to honour `header_type`.
        version: Version::new((1, 0)),
        title: String::new(),
        byte_order: ByteOrder::LittleEndian,
        data: DataSet::inline(piece),
        file_path: None,
    };
    let mut bytes = Vec::new();
    vtk.write_xml(&mut bytes)
        .map_err(|e| format_error(path, format!("VTK XML encoding failed: {e}")))?;
    Ok(bytes)
}

/// Checks every field's name and length against the entity count.
fn check_fields(path: &Path, on: &str, fields: &[Field], count: usize) -> Result<(), OutputError> {
    for (i, f) in fields.iter().enumerate() {
        if f.name.is_empty() {
            return Err(format_error(
                path,
                format!("{on} field #{i} has an empty name"),
            ));
        }
        if fields[..i].iter().any(|g| g.name == f.name) {
            return Err(format_error(
                path,
                format!("{on} field '{}' appears twice", f.name),
            ));
        }
        if f.components == 0 {
            return Err(format_error(
                path,
                format!("{on} field '{}' has 0 components", f.name),
            ));
        }
        if Some(f.values.len()) != count.checked_mul(f.components) {
            return Err(format_error(
                path,
                format!(
                    "{on} field '{}' has {} values, expected {count} {on}s × {} components = {}",
                    f.name,
                    f.values.len(),
                    f.components,
                    count * f.components
                ),
            ));
        }
    }
    Ok(())
}

/// The vtkio attribute for a field: scalars, vectors, tensors or generic.
fn attribute(f: &Field) -> Attribute {
    let array = match f.components {
        1 => DataArray::scalars(f.name, 1),
        3 => DataArray::vectors(f.name),
        9 => DataArray::tensors(f.name),
        n => DataArray::new(f.name, n as u32),
    };
    Attribute::DataArray(array.with_data(f.values.to_vec()))
}

/// VTK cell type of an element kind (same numbers as `ElementKind::vtk_type`).
fn cell_type(kind: ElementKind) -> CellType {
    let t = match kind {
        ElementKind::Line2 => CellType::Line,
        ElementKind::Tri3 => CellType::Triangle,
        ElementKind::Quad4 => CellType::Quad,
        ElementKind::Tet4 => CellType::Tetra,
        ElementKind::Hex8 => CellType::Hexahedron,
        ElementKind::Line3 => CellType::QuadraticEdge,
        ElementKind::Tri6 => CellType::QuadraticTriangle,
        ElementKind::Quad8 => CellType::QuadraticQuad,
        ElementKind::Quad9 => CellType::BiquadraticQuad,
        ElementKind::Tet10 => CellType::QuadraticTetra,
        ElementKind::Hex20 => CellType::QuadraticHexahedron,
        ElementKind::Hex27 => CellType::TriquadraticHexahedron,
    };
    debug_assert_eq!(t as u8, kind.vtk_type());
    t
}

/// A ParaView collection file listing the frames written so far; rewritten
/// atomically after every `add`, so it is valid whenever a run stops.
///
/// Format (ParaView's `vtkPVDReader`):
/// ```text
/// <?xml version="1.0"?>
/// <VTKFile type="Collection" version="0.1" byte_order="LittleEndian">
///   <Collection>
///     <DataSet timestep="2.5e-1" group="" part="0" file="frames/run_000001.vtu"/>
///   </Collection>
/// </VTKFile>
/// ```
/// Times are written in Rust's shortest round-trip scientific form (`{:e}`),
/// so the parsed `timestep` is bit-identical to the `f64` given to `add`.
#[derive(Debug)]
pub struct Pvd {
    path: PathBuf,
    entries: Vec<(f64, String)>,
}

impl Pvd {
    pub fn new(path: &Path) -> Pvd {
        Pvd {
            path: path.to_path_buf(),
            entries: Vec::new(),
        }
    }

    /// Adds a frame at time `t`; `file` is relative to the `.pvd`'s directory.
    ///
    /// A non-finite `t` is rejected (`OutputError::Format`) and not added. If
    /// rewriting the file fails the entry stays listed, so the next successful
    /// `add` writes it.
    pub fn add(&mut self, t: f64, file: &str) -> Result<(), OutputError> {
        if !t.is_finite() {
            return Err(format_error(
                &self.path,
                format!("frame '{file}' has time {t}"),
            ));
        }
        self.entries.push((t, file.to_string()));
        write_atomic(&self.path, self.render().as_bytes())
    }

    /// Replaces the list of frames (a restart continues a collection) and
    /// rewrites the file.
    pub fn set_entries(&mut self, entries: Vec<(f64, String)>) -> Result<(), OutputError> {
        self.entries = entries;
        write_atomic(&self.path, self.render().as_bytes())
    }

    /// The collection file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The frames listed so far: `(time, file relative to the .pvd)`.
    pub fn entries(&self) -> &[(f64, String)] {
        &self.entries
    }

    /// The XML text of the collection.
    fn render(&self) -> String {
        let mut s = String::with_capacity(128 + 96 * self.entries.len());
        s.push_str("<?xml version=\"1.0\"?>\n");
        s.push_str("<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n");
        s.push_str("  <Collection>\n");
        for (t, file) in &self.entries {
            s.push_str(&format!(
                "    <DataSet timestep=\"{t:e}\" group=\"\" part=\"0\" file=\"{}\"/>\n",
                xml_escape(file)
            ));
        }
        s.push_str("  </Collection>\n</VTKFile>\n");
        s
    }
}

/// Escapes the five XML special characters for use in an attribute value.
fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}
