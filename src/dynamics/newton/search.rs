//! Line search: the length of a correction. With contact multipliers the
//! full correction is taken unless the state it leads to is invalid (an
//! inverted element, a non-finite value, a failed projection), when it is
//! halved; the penalty law also halves one that does not decrease `‖R‖`,
//! except where no length does (a point changing branch of its law: the
//! residual is nonsmooth there), where the full one is taken. The
//! multipliers move with the positions (`old + s (new − old)`).

use super::evaluate::Eval;
use super::StepProblem;
use crate::contact::EvalOptions;
use crate::dynamics::step::StepError;

/// Moves `x1` along the correction (and the multipliers from `r_old` to
/// `r_new`) by the length the rule above picks; returns the new iterate's
/// evaluation and the length.
pub(super) fn search<P: StepProblem>(
    pb: &mut P,
    x0: &[f64],
    x1: &mut Vec<f64>,
    dt: f64,
    (cur, opts, backtrack): (&Eval, EvalOptions, bool),
) -> Result<(Eval, f64), StepError> {
    let mut s = 1.0;
    let mut failure = None;
    for _ in 0..pb.policy().max_halvings {
        match trial(pb, x0, x1, dt, opts, s) {
            Ok(e) if !backtrack || e.norm < cur.norm => {
                std::mem::swap(x1, &mut pb.parts().1.x_trial);
                return Ok((e, s));
            }
            Ok(_) => {}
            Err(e) => failure = Some(e),
        }
        s *= 0.5;
    }
    if backtrack && failure.is_none() && !pb.contacts().is_empty() {
        let e = trial(pb, x0, x1, dt, opts, 1.0)?;
        std::mem::swap(x1, &mut pb.parts().1.x_trial);
        return Ok((e, 1.0));
    }
    Err(failure.unwrap_or(StepError::NoConvergence {
        iterations: 0,
        residual: cur.relative(),
        contact: pb.contacts().violation(dt).0,
    }))
}

/// Evaluates `x1 + s dx` (into the scratch's `x_trial`) with the
/// multipliers blended to the same length.
fn trial<P: StepProblem>(
    pb: &mut P,
    x0: &[f64],
    x1: &[f64],
    dt: f64,
    opts: EvalOptions,
    s: f64,
) -> Result<Eval, StepError> {
    let (contacts, sc) = pb.parts();
    for i in 0..x1.len() {
        sc.x_trial[i] = x1[i] + s * sc.dx[i];
    }
    contacts.blend_multipliers(&sc.r_old, &sc.r_new, s);
    let trial = std::mem::take(&mut sc.x_trial);
    let e = pb.evaluate(x0, &trial, dt, opts);
    pb.parts().1.x_trial = trial;
    e
}
