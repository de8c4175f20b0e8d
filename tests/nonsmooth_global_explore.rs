#[path = "nonsmooth_global_common/mod.rs"]
mod common;
use common::*;
use emcontact::nonsmooth::fclib::{read_problem, FclibProblem};
use emcontact::nonsmooth::global::{self, nsgs, Params};
use std::time::{Duration, Instant};

#[test]
#[ignore]
fn explore() {
    for f in FILES {
        let (p, _) = read_problem(data(f)).unwrap();
        let lp = match &p {
            FclibProblem::Local(l) => l.clone(),
            FclibProblem::Global(g) => g.condense().unwrap().reduced,
        };
        for s in [
            "hyb-ac",
            "hyb-nm",
            "hyb-jm",
            "nsgs-test",
            "nsn-ac",
            "nsn-jm",
            "nsn-nm",
            "nsn-ac-ls",
            "nsn-jm-ls",
            "nsn-nm-ls",
            "global-nsn-ac",
        ] {
            let params = Params {
                deadline: Some(Instant::now() + Duration::from_secs(20)),
                ..Params::default()
            };
            let n = lp.size();
            let (mut r, mut u) = (vec![0.0; n], vec![0.0; n]);
            let t = Instant::now();
            let res = if s.starts_with("hyb") {
                let f = match s {
                    "hyb-ac" => global::NsnFunction::AlartCurnier,
                    "hyb-nm" => global::NsnFunction::NaturalMap,
                    _ => global::NsnFunction::JeanMoreau,
                };
                let params = Params {
                    hybrid_function: f,
                    ..params
                };
                global::hybrid::solve_with(&lp, &TestLocal, &mut r, &mut u, &params)
            } else if s == "nsgs-test" {
                nsgs::solve(&lp, &TestLocal, &mut r, &mut u, &params)
            } else if s == "global-nsn-ac" {
                match &p {
                    FclibProblem::Global(g) => {
                        let mut v = vec![f64::NAN; g.n_dofs()];
                        global::solve_global(s, g, &mut r, &mut u, &mut v, &params)
                    }
                    _ => continue,
                }
            } else {
                global::solve(s, &lp, &mut r, &mut u, &params)
            };
            println!("{f:45} {s:14} {:?} {:.4}s", res, t.elapsed().as_secs_f64());
        }
    }
}
