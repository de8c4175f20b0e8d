//! Gmsh MSH 2.2 (own reader) and 4.1 (crate `mshio`), ASCII and binary.
//!
//! Both readers produce a [`raw::RawMesh`] (node tags, element tags, physical
//! tags, `$PhysicalNames`), which [`raw::assemble`] turns into a [`Mesh`]: node
//! tags become contiguous 0-based indices in file order, every physical group of
//! dimension ≥ 1 becomes a [`Group`](super::Group), and surface groups are
//! oriented outward ([`Mesh::orient_surfaces`]).
//!
//! Format reference: Gmsh reference manual, "MSH file format" (version 4.1) and
//! "Legacy formats: MSH file format version 2".
use super::{Mesh, MeshError};
use std::path::Path;

mod cursor;
mod msh2;
mod msh4;
mod msh4_tags;
mod raw;

/// Reads a Gmsh mesh for a model of spatial dimension `dim` (2 or 3). Every
/// physical group becomes a `Group` named by `$PhysicalNames` (or
/// `"physical_<tag>"` when unnamed; `"physical_<dim>d_<tag>"` when the same
/// unnamed tag is used in two dimensions). Unsupported element types in a
/// physical group are an error naming them; point elements and elements outside
/// every physical group are ignored; nodes keep file order. In 2D all nodes must
/// have the same z (it is set to 0), and a body group whose elements are *all*
/// clockwise (a surface meshed with normal −z) is renumbered counter-clockwise;
/// a group with mixed orientations is left for [`Mesh::check_elements`] to
/// report. Surface groups (dimension `dim − 1`) are oriented outward from the
/// body element they bound.
pub fn read_gmsh(path: &Path, dim: usize) -> Result<Mesh, MeshError> {
    let bytes = std::fs::read(path).map_err(|source| MeshError::Io {
        file: path.to_path_buf(),
        source,
    })?;
    parse_gmsh(&bytes, path, dim)
}

/// Parses the bytes of a Gmsh file (`path` only names it in errors).
pub fn parse_gmsh(bytes: &[u8], path: &Path, dim: usize) -> Result<Mesh, MeshError> {
    if dim != 2 && dim != 3 {
        return Err(MeshError::Invalid(format!(
            "{}: the model dimension must be 2 or 3, not {dim}",
            path.display()
        )));
    }
    let header = cursor::read_header(bytes, path)?;
    let raw = match header.version.as_str() {
        "2.2" => msh2::read(bytes, &header, path)?,
        "4.1" => msh4::read(bytes, &header, path)?,
        v => {
            return Err(cursor::parse_error(
                path,
                Some(header.line),
                format!("MSH version {v} is not supported (only 2.2 and 4.1)"),
            ))
        }
    };
    let mut mesh = raw::assemble(raw, path, dim)?;
    if dim == 2 {
        raw::orient_plane_bodies(&mut mesh);
    }
    mesh.orient_surfaces()?;
    Ok(mesh)
}
