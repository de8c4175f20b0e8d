//! Fuzzed FCLIB files: byte flips, truncations and hostile values (huge
//! `nz`, negative and huge sizes, wrong dimensions, NaN, bad pointers) written into
//! copies of two sample files, each run through `emcontact fc solve` as its own
//! process. Every run must end by itself within 60 s with exit 0, 1 or 2 — never a
//! panic (exit 101), an abort or a signal.

use crate::common::fclib as common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{data, Lcg};

/// One mutated file and what was done to it.
struct Case {
    path: PathBuf,
    what: String,
}

fn mutate_bytes(base: &[u8], dir: &Path, rng: &mut Lcg, k: usize, tag: &str) -> Vec<Case> {
    let mut out = Vec::new();
    let pick = |rng: &mut Lcg, n: usize| ((rng.next() + 1.0) * 0.5 * n as f64) as usize % n.max(1);
    for j in 0..k {
        let mut b = base.to_vec();
        let flips = 1 + pick(rng, 8);
        let mut what = format!("{tag}: flips");
        for _ in 0..flips {
            let at = pick(rng, b.len());
            let x = 1 + pick(rng, 255) as u8;
            b[at] ^= x;
            what.push_str(&format!(" {at}^{x}"));
        }
        let path = dir.join(format!("{tag}-flip{j}.hdf5"));
        std::fs::write(&path, &b).unwrap();
        out.push(Case { path, what });
    }
    for j in 0..k / 4 {
        let len = pick(rng, base.len());
        let path = dir.join(format!("{tag}-trunc{j}.hdf5"));
        std::fs::write(&path, &base[..len]).unwrap();
        out.push(Case {
            path,
            what: format!("{tag}: truncated to {len} bytes"),
        });
    }
    out
}

/// Rewrites one dataset of a copy of `src` with `value` (as i64 or f64 scalars/vectors).
fn edit(src: &Path, dir: &Path, name: &str, dataset: &str, value: Value) -> Case {
    let path = dir.join(format!("{name}.hdf5"));
    std::fs::copy(src, &path).unwrap();
    {
        let f = hdf5::File::append(&path).unwrap();
        f.unlink(dataset).unwrap();
        let b = f.new_dataset_builder();
        match &value {
            Value::Ints(v) => b.with_data(&v[..]).create(dataset).unwrap(),
            Value::Reals(v) => b.with_data(&v[..]).create(dataset).unwrap(),
        };
    }
    Case {
        path,
        what: format!("{name}: {dataset} = {value:?}"),
    }
}

#[derive(Debug)]
enum Value {
    Ints(Vec<i64>),
    Reals(Vec<f64>),
}

fn hostile(dir: &Path) -> Vec<Case> {
    use Value::{Ints, Reals};
    let loc = data("LMGC_100_PR_PerioBox-i00361-60-03000.hdf5");
    let glo = data("Box_Stacks-i0122-82-5.hdf5");
    let big = i64::from(i32::MAX);
    let mut v = Vec::new();
    let l = "/fclib_local";
    let g = "/fclib_global";
    for (k, (src, ds, val)) in [
        (&loc, format!("{l}/W/nz"), Ints(vec![big])),
        (&loc, format!("{l}/W/nz"), Ints(vec![-7])),
        (&loc, format!("{l}/W/nz"), Ints(vec![1 << 40])),
        (&loc, format!("{l}/W/m"), Ints(vec![-180])),
        (&loc, format!("{l}/W/n"), Ints(vec![big])),
        (&loc, format!("{l}/W/n"), Ints(vec![1 << 41])),
        (&loc, format!("{l}/W/m"), Ints(vec![181])),
        (&loc, format!("{l}/W/p"), Ints(vec![0, big, 3])),
        (&loc, format!("{l}/W/p"), Ints(vec![])),
        (&loc, format!("{l}/W/i"), Ints(vec![-1; 10])),
        (&loc, format!("{l}/W/x"), Reals(vec![f64::NAN; 100])),
        (&loc, format!("{l}/spacedim"), Ints(vec![7])),
        (&loc, format!("{l}/spacedim"), Ints(vec![-3])),
        (&loc, format!("{l}/spacedim"), Ints(vec![])),
        (&loc, format!("{l}/vectors/mu"), Reals(vec![-0.5; 60])),
        (&loc, format!("{l}/vectors/mu"), Reals(vec![0.3; 61])),
        (&loc, format!("{l}/vectors/mu"), Reals(vec![])),
        (
            &loc,
            format!("{l}/vectors/q"),
            Reals(vec![f64::INFINITY; 180]),
        ),
        (&loc, format!("{l}/vectors/q"), Reals(vec![1.0; 3])),
        (&glo, format!("{g}/M/nz"), Ints(vec![big])),
        (&glo, format!("{g}/M/nz"), Ints(vec![-1])),
        (&glo, format!("{g}/M/nz"), Ints(vec![-2])),
        (&glo, format!("{g}/M/m"), Ints(vec![-450])),
        (&glo, format!("{g}/M/n"), Ints(vec![big])),
        (&glo, format!("{g}/H/n"), Ints(vec![1 << 35])),
        (&glo, format!("{g}/H/m"), Ints(vec![449])),
        (&glo, format!("{g}/M/x"), Reals(vec![0.0; 450])),
        (&glo, format!("{g}/M/x"), Reals(vec![-1.0; 450])),
        (&glo, format!("{g}/H/i"), Ints(vec![1 << 33; 3])),
        (&glo, format!("{g}/vectors/f"), Reals(vec![1.0; 10])),
        (&glo, format!("{g}/vectors/w"), Reals(vec![f64::NAN; 246])),
        (&glo, format!("{g}/spacedim"), Ints(vec![2])),
    ]
    .into_iter()
    .enumerate()
    {
        v.push(edit(src, dir, &format!("hostile{k}"), &ds, val));
    }
    v
}

/// Runs one case; `Err` describes a violation.
fn run(case: &Case) -> Result<(), String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_emcontact"))
        .args(["fc", "solve"])
        .arg(&case.path)
        .args(["--timeout", "5", "--max-iter", "3000"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            let mut err = String::new();
            use std::io::Read;
            if let Some(mut s) = child.stderr.take() {
                let _ = s.read_to_string(&mut err);
            }
            return match status.code() {
                Some(0..=2) if !err.contains("panicked") => Ok(()),
                c => Err(format!("{}: exit {c:?} ({status}): {err}", case.what)),
            };
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            return Err(format!("{}: still running after 60 s", case.what));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn fuzzed_files_never_panic_abort_or_hang() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Lcg(2024);
    let mut cases = Vec::new();
    for (tag, f) in [
        ("local", "LMGC_100_PR_PerioBox-i00361-60-03000.hdf5"),
        ("global", "Box_Stacks-i0122-82-5.hdf5"),
    ] {
        let base = std::fs::read(data(f)).unwrap();
        cases.extend(mutate_bytes(&base, dir.path(), &mut rng, 110, tag));
    }
    cases.extend(hostile(dir.path()));
    assert!(cases.len() >= 300, "{} mutations", cases.len());
    let half = cases.len() / 2;
    let (a, b) = cases.split_at(half);
    let failures: Vec<String> = std::thread::scope(|s| {
        let ha = s.spawn(|| a.iter().filter_map(|c| run(c).err()).collect::<Vec<_>>());
        let hb = s.spawn(|| b.iter().filter_map(|c| run(c).err()).collect::<Vec<_>>());
        let mut f = ha.join().unwrap();
        f.extend(hb.join().unwrap());
        f
    });
    assert!(
        failures.is_empty(),
        "{} of {} runs failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}
