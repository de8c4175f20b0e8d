//! Stage one: the TOML file as written (serde, unknown keys rejected). Values
//! that are checked later keep their span so errors can name the line.

use serde::Deserialize;
use toml::Spanned;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawInput {
    pub problem: RawProblem,
    pub time: RawTime,
    #[serde(default)]
    pub solver: RawSolver,
    #[serde(default)]
    pub output: RawOutput,
    pub mesh: Option<RawMesh>,
    #[serde(default)]
    pub body: Vec<RawBody>,
    #[serde(default)]
    pub boundary: Vec<RawBoundary>,
    pub gravity: Option<RawGravity>,
    #[serde(default)]
    pub contact: Vec<RawContact>,
    #[serde(default)]
    pub curve: Vec<RawCurve>,
    #[serde(default)]
    pub load: Vec<RawLoad>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawProblem {
    pub name: Spanned<String>,
    pub dimension: Spanned<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTime {
    pub dt: Spanned<f64>,
    pub end: Spanned<f64>,
    pub integrator: Option<Spanned<String>>,
    pub beta: Option<Spanned<f64>>,
    pub gamma: Option<Spanned<f64>>,
    pub adaptive: Option<Spanned<bool>>,
    pub dt_min: Option<Spanned<f64>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSolver {
    pub tolerance: Option<Spanned<f64>>,
    pub max_iterations: Option<Spanned<i64>>,
    pub max_cutbacks: Option<Spanned<i64>>,
    pub linear: Option<Spanned<String>>,
    pub petsc_options: Option<Spanned<String>>,
    pub contact_system: Option<Spanned<String>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawOutput {
    pub dir: Option<Spanned<String>>,
    pub every: Option<Spanned<i64>>,
    pub contact_problems: Option<Spanned<bool>>,
    pub checkpoint_every: Option<Spanned<i64>>,
    pub checkpoint_minutes: Option<Spanned<i64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMesh {
    pub file: Option<Spanned<String>>,
    #[serde(default)]
    pub generate: Vec<RawGenerate>,
}

/// `divisions` is a list for box and ring, one number for disk.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum Divisions {
    One(i64),
    Many(Vec<i64>),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawGenerate {
    pub kind: Spanned<String>,
    pub name: Spanned<String>,
    pub min: Option<Spanned<Vec<f64>>>,
    pub max: Option<Spanned<Vec<f64>>>,
    pub divisions: Option<Spanned<Divisions>>,
    pub element: Option<Spanned<String>>,
    pub center: Option<Spanned<Vec<f64>>>,
    pub radius: Option<Spanned<f64>>,
    pub thickness: Option<Spanned<f64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMaterial {
    pub model: Spanned<String>,
    pub young: Spanned<f64>,
    pub poisson: Spanned<f64>,
    pub density: Spanned<f64>,
}

/// A scalar (2D) or a vector (3D).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum AngularVelocity {
    Scalar(f64),
    Vector(Vec<f64>),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBody {
    pub name: Spanned<String>,
    pub group: Spanned<String>,
    pub material: Spanned<RawMaterial>,
    pub velocity: Option<Spanned<Vec<f64>>>,
    pub angular_velocity: Option<Spanned<AngularVelocity>>,
    pub mass: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBoundary {
    pub group: Spanned<String>,
    pub fix: Option<Spanned<Vec<String>>>,
    pub displacement: Option<Spanned<RawComponents>>,
    pub velocity: Option<Spanned<RawComponents>>,
    pub rotation: Option<Spanned<RawRotation>>,
    pub curve: Option<Spanned<String>>,
}

/// `{ x = .., y = .., z = .. }`, any subset.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawComponents {
    pub x: Option<f64>,
    pub y: Option<f64>,
    pub z: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRotation {
    pub point: Spanned<Vec<f64>>,
    pub axis: Option<Spanned<Vec<f64>>>,
    pub angular_velocity: Spanned<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCurve {
    pub name: Spanned<String>,
    pub points: Spanned<Vec<Vec<f64>>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLoad {
    pub group: Spanned<String>,
    pub pressure: Option<Spanned<f64>>,
    pub traction: Option<Spanned<Vec<f64>>>,
    pub force: Option<Spanned<Vec<f64>>>,
    pub curve: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawGravity {
    pub acceleration: Spanned<Vec<f64>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPlane {
    pub point: Spanned<Vec<f64>>,
    pub normal: Spanned<Vec<f64>>,
    pub velocity: Option<Spanned<Vec<f64>>>,
    pub displacement: Option<Spanned<Vec<f64>>>,
    pub curve: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSphere {
    pub center: Spanned<Vec<f64>>,
    pub radius: Spanned<f64>,
    pub velocity: Option<Spanned<Vec<f64>>>,
    pub displacement: Option<Spanned<Vec<f64>>>,
    pub curve: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCylinder {
    pub point: Spanned<Vec<f64>>,
    pub axis: Spanned<Vec<f64>>,
    pub radius: Spanned<f64>,
    pub velocity: Option<Spanned<Vec<f64>>>,
    pub displacement: Option<Spanned<Vec<f64>>>,
    pub curve: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawContact {
    pub slave: Spanned<String>,
    pub master: Option<Spanned<String>>,
    pub master_plane: Option<Spanned<RawPlane>>,
    pub master_sphere: Option<Spanned<RawSphere>>,
    pub master_cylinder: Option<Spanned<RawCylinder>>,
    pub friction: Option<Spanned<f64>>,
    pub enforcement: Option<Spanned<String>>,
    pub penalty: Option<Spanned<f64>>,
    pub tangential_penalty: Option<Spanned<f64>>,
    pub tolerance: Option<Spanned<f64>>,
    pub max_augmentations: Option<Spanned<toml::Value>>,
    pub velocity_update: Option<Spanned<bool>>,
    pub solver: Option<Spanned<String>>,
    pub tangent: Option<Spanned<String>>,
    pub initial_overlap: Option<Spanned<String>>,
    pub passes: Option<Spanned<i64>>,
}
