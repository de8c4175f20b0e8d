//! A step's Newton iterations taken one at a time from its start
//! (`Stepper::start_step`, `dynamics::newton::iterate`), abandoned
//! (`ContactSet::rollback`) and taken again, repeat bit for bit: positions,
//! multipliers and the linear solver's work. And a step taken after an
//! abandoned start is the step of a fresh stepper, bit for bit (restarts
//! repeat a run). The model: the contact-scaling family at N = 8, its
//! first-contact step on the saddle-point path
//! (`validation/contact_scaling/make.py 8 4 --gap 0.03 --gravity 10`),
//! the workload of `benches/timings/contact_iteration.rs`.

use crate::common::run::model;
use crate::common::validation::first_contact;
use emcontact::driver;
use emcontact::dynamics::newton::iterate;
use emcontact::dynamics::{State, StepReport, Stepper};

fn setup(dir: &std::path::Path) -> (Stepper<3>, State, f64) {
    let text = first_contact(8, &[]);
    let m = model(dir, &text);
    let (stepper, s) = driver::setup::<3>(&m).unwrap();
    (stepper, s, m.time.dt)
}

/// What `k` corrections from the step's start leave: the iterate's bits,
/// the multipliers' bits, the factorizations and solves they took, and the
/// points in contact at the last iterate corrected.
fn corrections(stepper: &mut Stepper<3>, s0: &State, dt: f64, k: usize) -> (Vec<u64>, usize) {
    stepper.contacts.rollback();
    let before = stepper.lu.stats();
    let mut x1 = stepper.start_step(s0, dt).unwrap();
    let mut report = StepReport::default();
    for _ in 0..k {
        iterate(stepper, s0, &mut x1, dt, &mut report).unwrap();
    }
    let after = stepper.lu.stats();
    let mut r = Vec::new();
    stepper.contacts.save_multipliers(&mut r);
    let mut bits: Vec<u64> = x1.iter().map(|v| v.to_bits()).collect();
    bits.extend(r.iter().flatten().map(|v| v.to_bits()));
    bits.push((after.factorizations - before.factorizations) as u64);
    bits.push((after.solves - before.solves) as u64);
    let active = stepper
        .contacts
        .points()
        .filter(|p| p.eval.active())
        .count();
    (bits, active)
}

#[test]
fn an_abandoned_step_taken_again_repeats_its_iterations_and_its_result() {
    let dir = tempfile::tempdir().unwrap();
    let (mut stepper, s0, dt) = setup(dir.path());
    let (first, active) = corrections(&mut stepper, &s0, dt, 2);
    assert!(
        active > 0,
        "the second correction starts from an iterate in contact"
    );
    let (again, _) = corrections(&mut stepper, &s0, dt, 2);
    assert!(first == again, "the same iterations after a rollback");

    stepper.contacts.rollback();
    let (s1, report) = stepper.step(&s0, dt).unwrap();
    let (mut fresh, _, _) = setup(dir.path());
    let (f1, fresh_report) = fresh.step(&s0, dt).unwrap();
    assert!(report.active > 0, "the step ends in contact");
    assert_eq!(report.iterations, fresh_report.iterations);
    let bits = |s: &State| -> Vec<u64> { s.x.iter().chain(&s.v).map(|v| v.to_bits()).collect() };
    assert!(
        bits(&s1) == bits(&f1),
        "a step after an abandoned start is a fresh stepper's step"
    );
}

/// A stop request ([`emcontact::dynamics::watch`]) seen before a correction
/// abandons the step: `Interrupted` after the corrections taken (not a
/// failure the controller retries), the notes of those corrections passed
/// to the hook, and the step taken again afterwards is a fresh stepper's
/// step, bit for bit (the checkpoint written at a stop is one between
/// steps, and a restart takes the step again whole).
#[test]
fn a_stop_request_abandons_the_step_without_a_trace() {
    use emcontact::dynamics::watch::{IterationNote, Watch};
    use emcontact::dynamics::StepError;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, Mutex};

    let dir = tempfile::tempdir().unwrap();
    let (mut stepper, s0, dt) = setup(dir.path());
    let stop = Arc::new(AtomicBool::new(false));
    let notes: Arc<Mutex<Vec<IterationNote>>> = Arc::default();
    let (flag, seen) = (Arc::clone(&stop), Arc::clone(&notes));
    stepper.set_watch(Watch {
        stop: Some(Arc::clone(&stop)),
        on_iteration: Some(Arc::new(move |n: &IterationNote| {
            seen.lock().unwrap().push(*n);
            if n.iteration == 2 {
                flag.store(true, Ordering::SeqCst);
            }
        })),
    });
    match stepper.step(&s0, dt) {
        Err(e @ StepError::Interrupted { iterations: 2 }) => {
            assert!(!e.retryable(), "a stop request is not cut back")
        }
        other => panic!("the step abandoned after 2 corrections, got {other:?}"),
    }
    let notes = notes.lock().unwrap().clone();
    assert_eq!(
        notes.iter().map(|n| n.iteration).collect::<Vec<_>>(),
        [1, 2],
        "a note per correction taken"
    );
    assert!(notes
        .iter()
        .all(|n| n.t0 == s0.t && n.dt == dt && n.residual.is_finite() && n.elapsed >= 0.0));

    stop.store(false, Ordering::SeqCst);
    stepper.set_watch(Watch {
        stop: Some(Arc::clone(&stop)),
        on_iteration: None,
    });
    let (s1, report) = stepper.step(&s0, dt).unwrap();
    let (mut fresh, _, _) = setup(dir.path());
    let (f1, fresh_report) = fresh.step(&s0, dt).unwrap();
    assert!(report.active > 0, "the step ends in contact");
    assert!(report.iterations > 2, "the stop came before the step's end");
    assert_eq!(report.iterations, fresh_report.iterations);
    assert_eq!(report.factorizations, fresh_report.factorizations);
    let bits = |s: &State| -> Vec<u64> { s.x.iter().chain(&s.v).map(|v| v.to_bits()).collect() };
    assert!(
        bits(&s1) == bits(&f1),
        "a step after an abandoned one is a fresh stepper's step"
    );
}
