//! The files of a parallel run, the same as the serial build's
//! (`driver::record`): `history.csv`, `bodies.csv` and `reactions.csv`
//! written by rank 0 from the ledgers ([`super::ledger`]), `contacts.csv`
//! by rank 0 from the replicated contact set (every rank holds every
//! pair's evaluations, so its rows are the serial ones, in the serial
//! order); each VTK frame as one `.vtu` piece per rank (its elements and
//! local nodes, with the contact data of those nodes) and a `.pvtu` that
//! names them, the `.pvd` listing the `.pvtu` files; and the
//! checkpoint, in the serial build's format and the mesh's node order
//! (gathered to rank 0), so that a run restarts on any number of ranks —
//! bit for bit on the number it was written with.

use super::ledger::{self, Support};
use super::petsc::PetscError;
use super::stepper::Distributed;
use emcontact::driver::checkpoint::{self, StateData};
use emcontact::driver::ledger::StepLedger;
use emcontact::driver::record::{
    contact_row, contacts_csv, history_csv, pair_name, RecordSnapshot,
};
use emcontact::driver::{
    write_piece, Balance, Checkpoint, StepControl, BODY_COLUMNS, CELL_FIELDS, CONTACT_FIELDS,
    POINT_FIELDS, REACTION_COLUMNS, REACTION_FIELD,
};
use emcontact::dynamics::forces::PairForces;
use emcontact::dynamics::{
    Measures, State, StepError, StepReport, StepperSnapshot, SNAPSHOT_VERSION,
};
use emcontact::model::Model;
use emcontact::output::{write_atomic, CsvWriter, OutputError, Pvd};
use std::path::{Path, PathBuf};

const BODIES: &str = "bodies.csv";
const REACTIONS: &str = "reactions.csv";

/// Rank 0's files.
struct RootFiles {
    history: CsvWriter,
    bodies: CsvWriter,
    reactions: Option<CsvWriter>,
    contacts: Option<CsvWriter>,
    pvd: Option<Pvd>,
}

/// Records a parallel run.
pub struct Recorder {
    out: PathBuf,
    name: String,
    root: Option<RootFiles>,
    body_names: Vec<String>,
    supports: Vec<Support>,
    support_names: Vec<String>,
    pair_names: Vec<String>,
    /// Cumulative frictional work per contact pair.
    pair_work: Vec<f64>,
    vtk: bool,
    frames: usize,
    /// Entries of the `.pvd` (kept on every rank for the checkpoint).
    pvd_entries: Vec<(f64, String)>,
    pub balance: Balance,
    /// Whether a step ended at the last frame (the `reaction` point data).
    has_reaction: bool,
}

fn output_error<E: std::fmt::Display>(file: &Path, e: E) -> OutputError {
    OutputError::Format {
        file: file.to_path_buf(),
        message: e.to_string(),
    }
}

impl Recorder {
    /// A new run's files, and the state at t = 0.
    pub fn create<const D: usize>(
        model: &Model,
        st: &mut Distributed<D>,
        s0: &State,
        out: &Path,
        vtk: bool,
    ) -> Result<Recorder, StepOrOutput> {
        let supports = ledger::supports(model, st);
        let (m0, bodies) = st.measures(s0, model.bodies.len())?;
        let root = if st.world.is_root() {
            Some(RootFiles {
                history: history_csv(out, None)?,
                bodies: CsvWriter::create(&out.join(BODIES), &BODY_COLUMNS)?,
                reactions: (!model.boundaries.is_empty())
                    .then(|| CsvWriter::create(&out.join(REACTIONS), &REACTION_COLUMNS))
                    .transpose()?,
                contacts: (!model.contacts.is_empty())
                    .then(|| contacts_csv(out, None))
                    .transpose()?,
                pvd: vtk.then(|| Pvd::new(&out.join(format!("{}.pvd", model.name)))),
            })
        } else {
            None
        };
        let mut balance = Balance::new(model, m0, false);
        balance.last_force = st.initial_force(s0);
        let mut rec = Recorder {
            out: out.to_path_buf(),
            name: model.name.clone(),
            root,
            body_names: model.bodies.iter().map(|b| b.name.clone()).collect(),
            support_names: model.boundaries.iter().map(|b| b.group.clone()).collect(),
            supports,
            pair_names: pair_names(model),
            pair_work: vec![0.0; model.contacts.len()],
            vtk,
            frames: 0,
            pvd_entries: Vec::new(),
            balance,
            has_reaction: false,
        };
        let (report, ledger) = (StepReport::default(), StepLedger::default());
        rec.rows(0.0, 0.0, &m0, &bodies, &report, &ledger, None, &[])?;
        rec.frame(st, s0)?;
        Ok(rec)
    }

    /// Reopens the files of an interrupted run at its checkpoint.
    pub fn resume<const D: usize>(
        model: &Model,
        st: &Distributed<D>,
        out: &Path,
        vtk: bool,
        snap: RecordSnapshot,
    ) -> Result<Recorder, OutputError> {
        let root = if st.world.is_root() {
            let open = |f: &str, c: &[&str], len: u64| CsvWriter::resume(&out.join(f), c, len);
            let mut pvd = vtk.then(|| Pvd::new(&out.join(format!("{}.pvd", model.name))));
            if let Some(p) = pvd.as_mut() {
                p.set_entries(snap.pvd.clone())?;
            }
            Some(RootFiles {
                history: history_csv(out, Some(snap.csv_len[0]))?,
                bodies: open(BODIES, &BODY_COLUMNS, snap.csv_len[1])?,
                reactions: (snap.csv_len[2] > 0)
                    .then(|| open(REACTIONS, &REACTION_COLUMNS, snap.csv_len[2]))
                    .transpose()?,
                contacts: (snap.csv_len[3] > 0)
                    .then(|| contacts_csv(out, Some(snap.csv_len[3])))
                    .transpose()?,
                pvd,
            })
        } else {
            None
        };
        Ok(Recorder {
            out: out.to_path_buf(),
            name: model.name.clone(),
            root,
            body_names: model.bodies.iter().map(|b| b.name.clone()).collect(),
            support_names: model.boundaries.iter().map(|b| b.group.clone()).collect(),
            supports: ledger::supports(model, st),
            pair_names: pair_names(model),
            pair_work: snap.pair_work,
            vtk,
            frames: snap.frames,
            pvd_entries: snap.pvd,
            balance: snap.balance,
            has_reaction: false,
        })
    }

    /// Records the accepted step `s0 → s1` of size `dt`.
    pub fn step<const D: usize>(
        &mut self,
        st: &mut Distributed<D>,
        s0: &State,
        s1: &State,
        dt: f64,
        report: &StepReport,
    ) -> Result<(), StepOrOutput> {
        let (m, bodies) = st.measures(s1, self.body_names.len())?;
        let reactions = st.reactions(&self.supports, s0, s1);
        let ledger = st.step_ledger(s0, s1, dt, report, self.balance.last_force);
        let pairs = st.pair_resultants(s0, s1, dt, self.pair_names.len());
        self.balance.step(m, report, &ledger);
        self.rows(
            s1.t,
            dt,
            &m,
            &bodies,
            report,
            &ledger,
            Some(&reactions),
            &pairs,
        )?;
        self.has_reaction = true;
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn rows(
        &mut self,
        t: f64,
        dt: f64,
        m: &Measures,
        bodies: &[emcontact::dynamics::measures::BodyMeasures],
        r: &StepReport,
        l: &StepLedger,
        reactions: Option<&[[f64; 6]]>,
        pairs: &[PairForces],
    ) -> Result<(), OutputError> {
        let b = &self.balance;
        let Some(files) = self.root.as_mut() else {
            return Ok(());
        };
        files
            .history
            .row(&emcontact::driver::record::history_values(
                t, dt, m, b, r, l,
            ))?;
        for (name, bm) in self.body_names.iter().zip(bodies) {
            files.bodies.row_with_text(1, name, &bm.row(t))?;
        }
        if let (Some(w), Some(rs)) = (files.reactions.as_mut(), reactions) {
            for (name, f) in self.support_names.iter().zip(rs) {
                w.row_with_text(1, name, &[t, f[0], f[1], f[2], f[3], f[4], f[5]])?;
            }
        }
        if let Some(w) = files.contacts.as_mut() {
            for (k, p) in pairs.iter().enumerate() {
                self.pair_work[k] += p.work;
                w.row_with_text(
                    1,
                    &self.pair_names[k],
                    &contact_row(t, p, self.pair_work[k]),
                )?;
            }
        }
        Ok(())
    }

    /// A VTK frame of `s`: this rank's piece; rank 0 also the `.pvtu` and the `.pvd`.
    pub fn frame<const D: usize>(
        &mut self,
        st: &mut Distributed<D>,
        s: &State,
    ) -> Result<(), StepOrOutput> {
        if !self.vtk {
            return Ok(());
        }
        // every rank's elements in the nodal stress of its nodes
        let stress_sums = st.nodal_stress_sums(&s.x)?;
        let stem = format!("{}_{:05}", self.name, self.frames);
        let piece = |r: usize| format!("{stem}_{r:05}.vtu");
        let fixed = st.local.sys.fixed.iter().any(|&f| f);
        let reaction = (self.has_reaction && fixed).then_some(&st.reaction[..]);
        // a piece has `reaction` where its rank has a fixed dof; the .pvtu
        // names it where every piece has it
        let everywhere = st.world.first_set(!fixed).is_none();
        let local = |a: usize| st.gathered.as_ref().and_then(|g| g.gather.local(a));
        write_piece(
            &st.local.sys,
            &st.contacts,
            local,
            s,
            reaction,
            &stress_sums,
            &self.out.join(piece(st.layout.rank)),
        )?;
        // every piece exists before the .pvtu names it
        st.world.barrier();
        let pvtu = format!("{stem}.pvtu");
        if let Some(files) = self.root.as_mut() {
            let path = self.out.join(&pvtu);
            let text = pvtu_text(
                &(0..st.layout.ranks).map(piece).collect::<Vec<_>>(),
                everywhere,
                !st.contacts.is_empty(),
            );
            write_atomic(&path, text.as_bytes())?;
            if let Some(pvd) = files.pvd.as_mut() {
                pvd.add(s.t, &pvtu)?;
            }
        }
        self.pvd_entries.push((s.t, pvtu));
        self.frames += 1;
        Ok(())
    }

    /// The recorder's part of a checkpoint (the file lengths are rank 0's).
    pub fn snapshot(&self) -> RecordSnapshot {
        let len = |w: Option<&CsvWriter>| w.map_or(0, |w| w.len());
        let files = self.root.as_ref();
        RecordSnapshot {
            balance: self.balance.clone(),
            pair_work: self.pair_work.clone(),
            frames: self.frames,
            pvd: self.pvd_entries.clone(),
            csv_len: [
                len(files.map(|f| &f.history)),
                len(files.map(|f| &f.bodies)),
                len(files.and_then(|f| f.reactions.as_ref())),
                len(files.and_then(|f| f.contacts.as_ref())),
            ],
        }
    }

    /// Writes the checkpoint (rank 0), the state gathered in mesh order.
    pub fn checkpoint<const D: usize>(
        &self,
        model: &Model,
        st: &Distributed<D>,
        s: &State,
        control: &StepControl,
    ) -> Result<(), OutputError> {
        let state = gather_state(model, st, s);
        let (couplings, pairs) = st.contact_snapshot();
        // the CSV lengths live on rank 0, the others' are zero
        let Some(state) = state else {
            return Ok(());
        };
        Checkpoint {
            version: checkpoint::CHECKPOINT_VERSION,
            model: emcontact::driver::model_key(model),
            state,
            stepper: StepperSnapshot {
                version: SNAPSHOT_VERSION,
                n_dofs: model.mesh.nodes.len() * D,
                couplings,
                pairs,
                saddle: None,
            },
            control: control.clone(),
            record: self.snapshot(),
        }
        .write(&self.out)
        .map_err(|e| output_error(&self.out.join(checkpoint::CHECKPOINT_FILE), e))
    }
}

/// `s` on rank 0 in the mesh's node order (nodes of no body: at their
/// reference position, at rest); `None` on the other ranks.
fn gather_state<const D: usize>(
    model: &Model,
    st: &Distributed<D>,
    s: &State,
) -> Option<StateData> {
    let layout = &st.layout;
    let counts: Vec<usize> = layout.owned_counts.iter().map(|c| c * D).collect();
    let owned = layout.owned * D;
    let x = st.world.gather_to_root(&s.x[..owned], &counts);
    let v = st.world.gather_to_root(&s.v[..owned], &counts);
    let a = st.world.gather_to_root(&s.a[..owned], &counts);
    let (x, v, a) = (x?, v?, a?);
    let n = model.mesh.nodes.len();
    let mut out = StateData {
        t: s.t,
        x: vec![0.0; n * D],
        v: vec![0.0; n * D],
        a: vec![0.0; n * D],
    };
    for a in 0..n {
        out.x[a * D..a * D + D].copy_from_slice(&model.mesh.nodes[a][..D]);
    }
    for (p, &node) in layout.petsc_to_mesh.iter().enumerate() {
        for i in 0..D {
            out.x[node * D + i] = x[p * D + i];
            out.v[node * D + i] = v[p * D + i];
            out.a[node * D + i] = a[p * D + i];
        }
    }
    Some(out)
}

/// This rank's local part of a state in mesh order.
pub fn local_state<const D: usize>(st: &Distributed<D>, s: &StateData) -> State {
    let pick = |v: &[f64]| -> Vec<f64> {
        st.layout
            .nodes
            .iter()
            .flat_map(|&a| v[a * D..a * D + D].iter().copied())
            .collect()
    };
    State {
        t: s.t,
        x: pick(&s.x),
        v: pick(&s.v),
        a: pick(&s.a),
    }
}

/// The pairs' names in `contacts.csv`, in input order.
fn pair_names(model: &Model) -> Vec<String> {
    (0..model.contacts.len())
        .map(|i| pair_name(model, i))
        .collect()
}

/// The `.pvtu` naming the pieces and declaring their arrays, from the lists
/// `driver::write_piece` writes them from: the [`POINT_FIELDS`], with
/// `reaction` the [`REACTION_FIELD`], with `contact` the [`CONTACT_FIELDS`],
/// and the [`CELL_FIELDS`] (VTK's parallel reader passes on only the
/// arrays declared here).
fn pvtu_text(pieces: &[String], reaction: bool, contact: bool) -> String {
    let declare = |fields: &[(&str, usize)]| -> String {
        fields
            .iter()
            .map(|(name, components)| {
                format!("      <PDataArray type=\"Float64\" Name=\"{name}\" NumberOfComponents=\"{components}\"/>\n")
            })
            .collect()
    };
    let mut point = declare(&POINT_FIELDS);
    if reaction {
        point += &declare(&[REACTION_FIELD]);
    }
    if contact {
        point += &declare(&CONTACT_FIELDS);
    }
    let cell = declare(&CELL_FIELDS);
    let mut text = format!(
        "<?xml version=\"1.0\"?>\n<VTKFile type=\"PUnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n  <PUnstructuredGrid GhostLevel=\"0\">\n    <PPointData Vectors=\"displacement\">\n{point}    </PPointData>\n    <PCellData Tensors=\"stress\" Scalars=\"strain_energy_density\">\n{cell}    </PCellData>\n    <PPoints>\n      <PDataArray type=\"Float64\" NumberOfComponents=\"3\"/>\n    </PPoints>\n"
    );
    for p in pieces {
        text.push_str(&format!("    <Piece Source=\"{p}\"/>\n"));
    }
    text.push_str("  </PUnstructuredGrid>\n</VTKFile>\n");
    text
}

/// A ledger's failure (an element), an output file's or PETSc's (an
/// exchange among the ranks).
#[derive(Debug, thiserror::Error)]
pub enum StepOrOutput {
    #[error("{0}")]
    Step(#[from] StepError),
    #[error("{0}")]
    Output(#[from] OutputError),
    #[error("{0}")]
    Petsc(#[from] PetscError),
}
