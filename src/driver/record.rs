//! Recording a run: `history.csv`, `bodies.csv`, `reactions.csv`,
//! `contacts.csv`, the VTK frames and the `.pvd`, and the running
//! conservation measures.

use super::balance::Balance;
use super::frame::write_frame;
use super::ledger::StepLedger;
use crate::dynamics::forces::{PairForces, StepForces};
use crate::dynamics::measures::measure_bodies;
use crate::dynamics::{Measures, State, StepReport, Stepper};
use crate::model::{MasterSpec, Model};
use crate::output::{CsvWriter, OutputError, Pvd};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The columns of `history.csv` (a contract: scripts read them by name).
pub const HISTORY_COLUMNS: [&str; 36] = [
    "t",
    "dt",
    "kinetic",
    "strain",
    "gravity",
    "total",
    "external_work",
    "lx",
    "ly",
    "lz",
    "jx",
    "jy",
    "jz",
    "newton_iterations",
    "residual",
    "dissipation",
    "update_defect",
    "active",
    "stick",
    "slip",
    "max_penetration",
    "contact_restarts",
    "linear_scale",
    "angular_scale",
    "max_penetration_h",
    "linear_iterations",
    "factorizations",
    "chord_iterations",
    "impulse_x",
    "impulse_y",
    "impulse_z",
    "angular_impulse_x",
    "angular_impulse_y",
    "angular_impulse_z",
    "impulse_size",
    "angular_impulse_size",
];

/// Columns of `history.csv` that hold counts (written as integers).
const HISTORY_INTEGERS: [&str; 8] = [
    "newton_iterations",
    "active",
    "stick",
    "slip",
    "contact_restarts",
    "linear_iterations",
    "factorizations",
    "chord_iterations",
];

/// Columns of `contacts.csv` that hold counts.
const CONTACT_INTEGERS: [&str; 3] = ["active", "stick", "slip"];

/// Columns of `bodies.csv` (one row per step and body; `j` and `w` about the
/// body's centre of mass `x, y, z`).
pub const BODY_COLUMNS: [&str; 16] = [
    "t", "body", "kinetic", "strain", "lx", "ly", "lz", "jx", "jy", "jz", "x", "y", "z", "wx",
    "wy", "wz",
];

/// Columns of `reactions.csv`: per step and fixed boundary group, the force
/// the supports exert on the bodies and its moment about the origin.
pub const REACTION_COLUMNS: [&str; 8] = ["t", "group", "fx", "fy", "fz", "mx", "my", "mz"];

/// Columns of `contacts.csv`: per step and contact pair, the normal and
/// tangential resultants on the slave side, their moment about the origin,
/// the active area, the point counts and the pair's cumulative frictional work.
pub const CONTACT_COLUMNS: [&str; 16] = [
    "t", "pair", "fnx", "fny", "fnz", "ftx", "fty", "ftz", "mx", "my", "mz", "area", "active",
    "stick", "slip", "work",
];

/// File names.
const HISTORY: &str = "history.csv";
const BODIES: &str = "bodies.csv";
const REACTIONS: &str = "reactions.csv";
const CONTACTS: &str = "contacts.csv";

/// The recorder's state in a checkpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordSnapshot {
    pub balance: Balance,
    /// Cumulative frictional work per contact pair.
    pub pair_work: Vec<f64>,
    /// Frames written and the `.pvd` entries.
    pub frames: usize,
    pub pvd: Vec<(f64, String)>,
    /// Lengths of history, bodies, reactions and contacts CSVs (0: not written).
    pub csv_len: [u64; 4],
}

/// A fixed boundary group: its name and the fixed dofs attributed to it.
struct Support {
    name: String,
    dofs: Vec<usize>,
}

/// Writes a run's files.
pub struct Recorder {
    out: PathBuf,
    name: String,
    history: CsvWriter,
    bodies: CsvWriter,
    reactions: Option<CsvWriter>,
    contacts: Option<CsvWriter>,
    body_names: Vec<String>,
    pair_names: Vec<String>,
    supports: Vec<Support>,
    pvd: Option<Pvd>,
    frames: usize,
    pub balance: Balance,
    pair_work: Vec<f64>,
    /// The reaction of the last step (for frames).
    last_reaction: Option<Vec<f64>>,
}

/// `history.csv` in `out`: created (`len` `None`), or reopened at the
/// length `len` a checkpoint recorded; its count columns are written as
/// integers.
pub fn history_csv(out: &Path, len: Option<u64>) -> Result<CsvWriter, OutputError> {
    let path = out.join(HISTORY);
    let w = match len {
        None => CsvWriter::create(&path, &HISTORY_COLUMNS)?,
        Some(len) => CsvWriter::resume(&path, &HISTORY_COLUMNS, len)?,
    };
    Ok(w.with_integers(&HISTORY_COLUMNS, &HISTORY_INTEGERS))
}

/// `contacts.csv` in `out`: created (`len` `None`), or reopened at the
/// length `len` a checkpoint recorded.
pub fn contacts_csv(out: &Path, len: Option<u64>) -> Result<CsvWriter, OutputError> {
    let path = out.join(CONTACTS);
    let w = match len {
        None => CsvWriter::create(&path, &CONTACT_COLUMNS)?,
        Some(len) => CsvWriter::resume(&path, &CONTACT_COLUMNS, len)?,
    };
    Ok(w.with_integers(&CONTACT_COLUMNS, &CONTACT_INTEGERS))
}

/// One `contacts.csv` row after the pair name ([`CONTACT_COLUMNS`]): the
/// pair's resultants `p` of the step ending at `t`, and its frictional
/// work so far `work`.
pub fn contact_row(t: f64, p: &PairForces, work: f64) -> [f64; CONTACT_COLUMNS.len() - 1] {
    [
        t,
        p.normal[0],
        p.normal[1],
        p.normal[2],
        p.tangential[0],
        p.tangential[1],
        p.tangential[2],
        p.moment[0],
        p.moment[1],
        p.moment[2],
        p.area,
        p.active as f64,
        p.stick as f64,
        p.slip as f64,
        work,
    ]
}

/// `slave:master` (`master` a surface, or `plane`, `sphere`, `cylinder`),
/// with `#i` (the contact's index) where two pairs would have the same name.
pub fn pair_name(model: &Model, i: usize) -> String {
    let name = |i: usize| base_pair_name(model, i);
    let own = name(i);
    if (0..model.contacts.len()).any(|k| k != i && name(k) == own) {
        format!("{own}#{i}")
    } else {
        own
    }
}

fn base_pair_name(model: &Model, i: usize) -> String {
    let c = &model.contacts[i];
    match &c.master {
        MasterSpec::Surface(m) => format!("{}:{m}", c.slave),
        MasterSpec::Plane { .. } => format!("{}:plane", c.slave),
        MasterSpec::Rigid(r) => format!("{}:{}", c.slave, r.kind()),
    }
}

/// Each fixed dof attributed to the first boundary that fixes it; fixed dofs
/// of nodes of no body form the group `no_body`.
fn supports<const D: usize>(stepper: &Stepper<D>, model: &Model) -> Vec<Support> {
    let sys = &stepper.sys;
    let mut owner = vec![usize::MAX; sys.n_dofs()];
    let mut out = Vec::new();
    for (b, bc) in model.boundaries.iter().enumerate() {
        let mut dofs = Vec::new();
        let constrained = bc.constrained();
        for a in model.mesh.group_nodes(&bc.group).unwrap_or_default() {
            for i in (0..D).filter(|&i| constrained[i]) {
                if owner[a * D + i] == usize::MAX {
                    owner[a * D + i] = b;
                    dofs.push(a * D + i);
                }
            }
        }
        out.push(Support {
            name: bc.group.clone(),
            dofs,
        });
    }
    let rest: Vec<usize> = (0..sys.n_dofs())
        .filter(|&i| sys.fixed[i] && owner[i] == usize::MAX)
        .collect();
    if !rest.is_empty() {
        out.push(Support {
            name: "no_body".into(),
            dofs: rest,
        });
    }
    out
}

impl Recorder {
    /// Creates the files of a new run in `out` and records the state at t = 0.
    pub fn create<const D: usize>(
        model: &Model,
        stepper: &Stepper<D>,
        s0: &State,
        out: &Path,
        vtk: bool,
    ) -> Result<Recorder, OutputError> {
        let supports = supports(stepper, model);
        let m0 = measure_state(stepper, s0, &model.gravity, out)?;
        let obstacle = supports.iter().any(|s| s.name == "no_body");
        let mut rec = Recorder {
            out: out.to_path_buf(),
            name: model.name.clone(),
            history: history_csv(out, None)?,
            bodies: CsvWriter::create(&out.join(BODIES), &BODY_COLUMNS)?,
            reactions: (!supports.is_empty())
                .then(|| CsvWriter::create(&out.join(REACTIONS), &REACTION_COLUMNS))
                .transpose()?,
            contacts: (!model.contacts.is_empty())
                .then(|| contacts_csv(out, None))
                .transpose()?,
            body_names: model.bodies.iter().map(|b| b.name.clone()).collect(),
            pair_names: (0..model.contacts.len())
                .map(|i| pair_name(model, i))
                .collect(),
            supports,
            pvd: vtk.then(|| Pvd::new(&out.join(format!("{}.pvd", model.name)))),
            frames: 0,
            balance: Balance::new(model, m0, obstacle),
            pair_work: vec![0.0; model.contacts.len()],
            last_reaction: None,
        };
        rec.history_row(
            0.0,
            0.0,
            &m0,
            &StepReport::default(),
            &StepLedger::default(),
        )?;
        rec.body_rows(stepper, s0)?;
        rec.frame(stepper, s0)?;
        Ok(rec)
    }

    /// Reopens the files of an interrupted run at the checkpoint `snap`.
    pub fn resume<const D: usize>(
        model: &Model,
        stepper: &Stepper<D>,
        out: &Path,
        vtk: bool,
        snap: RecordSnapshot,
    ) -> Result<Recorder, OutputError> {
        let supports = supports(stepper, model);
        let open =
            |file: &str, cols: &[&str], len: u64| CsvWriter::resume(&out.join(file), cols, len);
        let mut pvd = vtk.then(|| Pvd::new(&out.join(format!("{}.pvd", model.name))));
        if let Some(p) = pvd.as_mut() {
            p.set_entries(snap.pvd.clone())?;
        }
        Ok(Recorder {
            out: out.to_path_buf(),
            name: model.name.clone(),
            history: history_csv(out, Some(snap.csv_len[0]))?,
            bodies: open(BODIES, &BODY_COLUMNS, snap.csv_len[1])?,
            reactions: (snap.csv_len[2] > 0)
                .then(|| open(REACTIONS, &REACTION_COLUMNS, snap.csv_len[2]))
                .transpose()?,
            contacts: (snap.csv_len[3] > 0)
                .then(|| contacts_csv(out, Some(snap.csv_len[3])))
                .transpose()?,
            body_names: model.bodies.iter().map(|b| b.name.clone()).collect(),
            pair_names: (0..model.contacts.len())
                .map(|i| pair_name(model, i))
                .collect(),
            supports,
            pvd,
            frames: snap.frames,
            balance: snap.balance,
            pair_work: snap.pair_work,
            last_reaction: None,
        })
    }

    /// The recorder's part of a checkpoint.
    pub fn snapshot(&self) -> RecordSnapshot {
        RecordSnapshot {
            balance: self.balance.clone(),
            pair_work: self.pair_work.clone(),
            frames: self.frames,
            pvd: self
                .pvd
                .as_ref()
                .map(|p| p.entries().to_vec())
                .unwrap_or_default(),
            csv_len: [
                self.history.len(),
                self.bodies.len(),
                self.reactions.as_ref().map_or(0, |w| w.len()),
                self.contacts.as_ref().map_or(0, |w| w.len()),
            ],
        }
    }

    /// Records one accepted step of size `dt` ending in `s`.
    #[allow(clippy::too_many_arguments)]
    pub fn step<const D: usize>(
        &mut self,
        stepper: &Stepper<D>,
        gravity: &[f64; 3],
        s0: &State,
        s: &State,
        dt: f64,
        report: &StepReport,
        forces: &StepForces,
        ledger: &StepLedger,
    ) -> Result<(), OutputError> {
        let m = measure_state(stepper, s, gravity, &self.out)?;
        self.balance.step(m, report, ledger);
        self.history_row(s.t, dt, &m, report, ledger)?;
        self.body_rows(stepper, s)?;
        self.force_rows::<D>(s0, s, forces)?;
        self.last_reaction = Some(forces.reaction.clone());
        Ok(())
    }

    fn history_row(
        &mut self,
        t: f64,
        dt: f64,
        m: &Measures,
        r: &StepReport,
        l: &StepLedger,
    ) -> Result<(), OutputError> {
        self.history
            .row(&history_values(t, dt, m, &self.balance, r, l))
    }

    fn body_rows<const D: usize>(
        &mut self,
        stepper: &Stepper<D>,
        s: &State,
    ) -> Result<(), OutputError> {
        let sys = &stepper.sys;
        let mut mv = vec![0.0; sys.n_dofs()];
        sys.mass_times(&s.v, &mut mv);
        let rows = measure_bodies(sys, &s.x, &s.v, &mv, self.body_names.len()).map_err(|e| {
            OutputError::Format {
                file: self.out.join(BODIES),
                message: e.to_string(),
            }
        })?;
        for (name, m) in self.body_names.iter().zip(rows) {
            self.bodies.row_with_text(1, name, &m.row(s.t))?;
        }
        Ok(())
    }

    /// `reactions.csv` and `contacts.csv` rows; moments about the origin at
    /// the step's midpoint positions (where the forces of eq. 54 act).
    fn force_rows<const D: usize>(
        &mut self,
        s0: &State,
        s: &State,
        f: &StepForces,
    ) -> Result<(), OutputError> {
        if let Some(w) = self.reactions.as_mut() {
            for sup in &self.supports {
                let (mut force, mut moment) = ([0.0; 3], [0.0; 3]);
                for &dof in &sup.dofs {
                    let (a, i) = (dof / D, dof % D);
                    let mut r = [0.0; 3];
                    r[i] = f.reaction[dof];
                    let mut x = [0.0; 3];
                    for k in 0..D {
                        x[k] = 0.5 * (s0.x[a * D + k] + s.x[a * D + k]);
                    }
                    force[i] += r[i];
                    let m = [
                        x[1] * r[2] - x[2] * r[1],
                        x[2] * r[0] - x[0] * r[2],
                        x[0] * r[1] - x[1] * r[0],
                    ];
                    (0..3).for_each(|k| moment[k] += m[k]);
                }
                let row = [
                    s.t, force[0], force[1], force[2], moment[0], moment[1], moment[2],
                ];
                w.row_with_text(1, &sup.name, &row)?;
            }
        }
        if let Some(w) = self.contacts.as_mut() {
            for (k, p) in f.pairs.iter().enumerate() {
                self.pair_work[k] += p.work;
                let row = contact_row(s.t, p, self.pair_work[k]);
                w.row_with_text(1, &self.pair_names[k], &row)?;
            }
        }
        Ok(())
    }

    /// Writes a VTK frame of `s` (when frames are on).
    pub fn frame<const D: usize>(
        &mut self,
        stepper: &Stepper<D>,
        s: &State,
    ) -> Result<(), OutputError> {
        if let Some(pvd) = self.pvd.as_mut() {
            // one frame per time: the end may also be an output time
            if pvd.entries().last().is_some_and(|e| e.0 == s.t) {
                return Ok(());
            }
            let file = format!("{}_{:05}.vtu", self.name, self.frames);
            write_frame(
                &stepper.sys,
                &stepper.contacts,
                s,
                self.last_reaction.as_deref(),
                &self.out.join(&file),
            )?;
            pvd.add(s.t, &file)?;
            self.frames += 1;
        }
        Ok(())
    }
}

/// One `history.csv` row ([`HISTORY_COLUMNS`]): the step ending at `t`
/// (size `dt`), its state's measures `m`, the run's balance `b` so far, the
/// step's report `r` and what it owes the ledgers `l`.
pub fn history_values(
    t: f64,
    dt: f64,
    m: &Measures,
    b: &Balance,
    r: &StepReport,
    l: &StepLedger,
) -> [f64; HISTORY_COLUMNS.len()] {
    [
        t,
        dt,
        m.kinetic,
        m.strain,
        m.gravity,
        m.total(),
        b.external_work,
        m.linear[0],
        m.linear[1],
        m.linear[2],
        m.angular[0],
        m.angular[1],
        m.angular[2],
        r.iterations as f64,
        r.residual,
        b.dissipation,
        b.defect,
        r.active as f64,
        r.stick as f64,
        r.slip as f64,
        r.max_penetration,
        r.contact_restarts as f64,
        m.linear_scale,
        m.angular_scale,
        r.max_penetration_h,
        r.linear_iterations as f64,
        r.factorizations as f64,
        r.chord_iterations as f64,
        b.impulse[0],
        b.impulse[1],
        b.impulse[2],
        b.angular_impulse[0],
        b.angular_impulse[1],
        b.angular_impulse[2],
        l.impulse_size,
        l.angular_impulse_size,
    ]
}

/// The measures of `s`, an output error naming `history.csv` if an element
/// is degenerate there.
pub fn measure_state<const D: usize>(
    stepper: &Stepper<D>,
    s: &State,
    gravity: &[f64; 3],
    out: &Path,
) -> Result<Measures, OutputError> {
    let mut mv = vec![0.0; stepper.sys.n_dofs()];
    crate::dynamics::measure(&stepper.sys, &s.x, &s.v, gravity, &mut mv).map_err(|e| {
        OutputError::Format {
            file: out.join(HISTORY),
            message: format!("at t = {}: {e}", s.t),
        }
    })
}
