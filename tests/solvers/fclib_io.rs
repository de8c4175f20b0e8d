//! FCLIB HDF5 reading and writing: the four sample files, bit-exact round trips in all
//! three sparse storages, /solution and /guesses, h5py interoperability, typed errors
//! on bad files.

use crate::common::fclib as common;

use std::path::Path;

use crate::common::python::python;
use common::{data, FILES};
use emcontact::nonsmooth::fclib::{
    read_guesses, read_problem, read_solution, write_guesses, write_problem, write_solution,
    FclibError, FclibProblem, FclibSolution, ProblemInfo, SparseFormat, SparseStorage,
};
use emcontact::nonsmooth::problem::{LocalProblem, ProblemError};
use faer::sparse::SparseColMat;

fn same_matrix(a: &SparseColMat<usize, f64>, b: &SparseColMat<usize, f64>) -> bool {
    a.nrows() == b.nrows()
        && a.ncols() == b.ncols()
        && a.symbolic().col_ptr() == b.symbolic().col_ptr()
        && a.symbolic().row_idx() == b.symbolic().row_idx()
        && a.val()
            .iter()
            .zip(b.val())
            .all(|(x, y)| x.to_bits() == y.to_bits())
        && a.val().len() == b.val().len()
}

fn bits(a: &[f64]) -> Vec<u64> {
    a.iter().map(|x| x.to_bits()).collect()
}

fn assert_same_problem(a: &FclibProblem, b: &FclibProblem) {
    match (a, b) {
        (FclibProblem::Local(a), FclibProblem::Local(b)) => {
            assert_eq!(a.dim, b.dim);
            assert!(same_matrix(&a.w, &b.w), "W differs");
            assert_eq!(bits(&a.q), bits(&b.q));
            assert_eq!(bits(&a.mu), bits(&b.mu));
        }
        (FclibProblem::Global(a), FclibProblem::Global(b)) => {
            assert_eq!(a.dim, b.dim);
            assert!(same_matrix(&a.m, &b.m), "M differs");
            assert!(same_matrix(&a.h, &b.h), "H differs");
            assert_eq!(bits(&a.f), bits(&b.f));
            assert_eq!(bits(&a.w), bits(&b.w));
            assert_eq!(bits(&a.mu), bits(&b.mu));
        }
        _ => panic!("problem kind changed"),
    }
}

/// Sizes of the four sample files as documented (README table).
#[test]
fn reads_the_four_sample_files() {
    // Box_Stacks has μ = 0.3 (the shared README table says 0.7; h5py reads 0.3).
    let expect = [
        (144, 48, 0.7),
        (180, 60, f64::NAN),
        (858, 286, 0.7),
        (246, 82, 0.3),
    ];
    for (f, (n, nc, mu)) in FILES.iter().zip(expect) {
        let (p, info) = read_problem(data(f)).unwrap();
        let (dim, got_nc, mus) = match &p {
            FclibProblem::Local(l) => {
                assert_eq!((l.w.nrows(), l.w.ncols(), l.q.len()), (n, n, n), "{f}");
                (l.dim, l.n_contacts, l.mu.clone())
            }
            FclibProblem::Global(g) => {
                assert_eq!(
                    (g.m.nrows(), g.h.nrows(), g.h.ncols(), g.w.len()),
                    (450, 450, n, n),
                    "{f}"
                );
                (g.dim, g.n_contacts, g.mu.clone())
            }
        };
        assert_eq!((dim, got_nc), (3, nc), "{f}");
        if mu.is_finite() {
            assert!(mus.iter().all(|&m| m == mu), "{f}: μ");
        } else {
            assert!(
                mus.iter().all(|&m| m == 0.3 || m == 0.5),
                "{f}: μ ∈ {{0.3, 0.5}}"
            );
        }
        assert!(info.is_some(), "{f}: info/ strings");
    }
    let (_, info) = read_problem(data("Capsules-i125-1213.hdf5")).unwrap();
    assert_eq!(info.unwrap().title, "Capsules");
    // Triplet H: row indices reach 389 (> 246 columns): rows are `i`, columns `p`.
    let (p, _) = read_problem(data("Box_Stacks-i0122-82-5.hdf5")).unwrap();
    let FclibProblem::Global(g) = p else { panic!() };
    assert_eq!(*g.h.symbolic().row_idx().iter().max().unwrap(), 389);
}

/// Write → read returns every array bit for bit, in each sparse storage.
#[test]
fn round_trip_is_bit_exact_in_all_storages() {
    let dir = tempfile::tempdir().unwrap();
    for f in FILES {
        let (p, info) = read_problem(data(f)).unwrap();
        for format in [SparseFormat::Csc, SparseFormat::Csr, SparseFormat::Triplet] {
            let out = dir.path().join(format!("{f}-{format:?}.hdf5"));
            write_problem(&out, &p, info.as_ref(), format).unwrap();
            let (back, info_back) = read_problem(&out).unwrap();
            assert_same_problem(&p, &back);
            assert_eq!(info, info_back, "{f} {format:?}: info strings");
        }
    }
}

/// The raw arrays of every storage convert back to the same matrix.
#[test]
fn sparse_storages_agree() {
    let (p, _) = read_problem(data("Capsules-i125-1213.hdf5")).unwrap();
    let FclibProblem::Local(l) = p else { panic!() };
    for format in [SparseFormat::Csc, SparseFormat::Csr, SparseFormat::Triplet] {
        let s = SparseStorage::from_matrix(&l.w, format);
        assert!(same_matrix(&s.to_matrix().unwrap(), &l.w), "{format:?}");
    }
}

#[test]
fn solution_and_guesses_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.hdf5");
    let (p, _) = read_problem(data("Box_Stacks-i0122-82-5.hdf5")).unwrap();
    write_problem(&out, &p, None, SparseFormat::Csc).unwrap();
    assert_eq!(read_solution(&out).unwrap(), None);
    let sol = FclibSolution {
        v: Some((0..450).map(|k| (k as f64).sin()).collect()),
        u: Some((0..246).map(|k| 1.0 / (k as f64 + 0.3)).collect()),
        r: Some((0..246).map(|k| -(k as f64).cos() * 1e-300).collect()),
        l: None,
    };
    write_solution(&out, &sol).unwrap();
    // Replacing an existing /solution works.
    write_solution(&out, &sol).unwrap();
    let back = read_solution(&out).unwrap().unwrap();
    assert_eq!(
        bits(back.r.as_ref().unwrap()),
        bits(sol.r.as_ref().unwrap())
    );
    assert_eq!(
        bits(back.u.as_ref().unwrap()),
        bits(sol.u.as_ref().unwrap())
    );
    assert_eq!(
        bits(back.v.as_ref().unwrap()),
        bits(sol.v.as_ref().unwrap())
    );
    assert_eq!(back.l, None);
    write_guesses(
        &out,
        &[
            sol.clone(),
            FclibSolution {
                r: Some(vec![1.5; 246]),
                ..Default::default()
            },
        ],
    )
    .unwrap();
    let g = read_guesses(&out).unwrap();
    assert_eq!(g.len(), 2);
    assert_eq!(g[0], sol);
    assert_eq!(g[1].r.as_deref(), Some(&[1.5; 246][..]));
    // The sample files' own guesses are read.
    let g = read_guesses(data("Capsules-i125-1213.hdf5")).unwrap();
    assert_eq!(g.len(), 1);
    assert_eq!(g[0].r.as_ref().unwrap().len(), 858);
}

/// h5py (with numpy) reads what we write, in each storage, and finds exactly the
/// matrices and vectors of the original file (interpreting `nz` as FCLIB does).
#[test]
fn h5py_reads_what_we_write() {
    let dir = tempfile::tempdir().unwrap();
    let script = r#"
import sys, h5py, numpy as np
def mat(g):
    m, n, nz = int(g['m'][0]), int(g['n'][0]), int(g['nz'][0])
    p, i, x = g['p'][()], g['i'][()], g['x'][()]
    a = np.zeros((m, n))
    if nz >= 0: np.add.at(a, (i[:nz], p[:nz]), x[:nz])
    elif nz == -1: np.add.at(a, (i[:p[n]], np.repeat(np.arange(n), np.diff(p))), x[:p[n]])
    else: np.add.at(a, (np.repeat(np.arange(m), np.diff(p)), i[:p[m]]), x[:p[m]])
    return a
a, b = h5py.File(sys.argv[1], 'r'), h5py.File(sys.argv[2], 'r')
k = 'fclib_local' if 'fclib_local' in a else 'fclib_global'
assert int(a[k]['spacedim'][0]) == int(b[k]['spacedim'][0])
for M in (['W'] if k == 'fclib_local' else ['M', 'H']):
    A, B = mat(a[k][M]), mat(b[k][M])
    assert A.shape == B.shape and np.array_equal(A, B), M
for v in a[k]['vectors']:
    assert np.array_equal(a[k]['vectors'][v][()], b[k]['vectors'][v][()]), v
t = b[k]['info/title'][()]
t = t.decode() if isinstance(t, bytes) else t
assert t == sys.argv[3], (t, sys.argv[3])
r = b['solution/r'][()]
assert np.array_equal(r, np.arange(len(r)) * 0.25)
print('ok')
"#;
    for f in FILES {
        let (p, info) = read_problem(data(f)).unwrap();
        let n = match &p {
            FclibProblem::Local(l) => l.size(),
            FclibProblem::Global(g) => g.dim * g.n_contacts,
        };
        for format in [SparseFormat::Csc, SparseFormat::Csr, SparseFormat::Triplet] {
            let out = dir.path().join(format!("{f}-{format:?}.hdf5"));
            write_problem(&out, &p, info.as_ref(), format).unwrap();
            let r: Vec<f64> = (0..n).map(|k| k as f64 * 0.25).collect();
            write_solution(
                &out,
                &FclibSolution {
                    r: Some(r),
                    ..Default::default()
                },
            )
            .unwrap();
            let o = python(&["h5py", "numpy"])
                .args(["-c", script])
                .arg(data(f))
                .arg(&out)
                .arg(&info.as_ref().unwrap().title)
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "{f} {format:?}: {}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
}

fn err_string(path: &Path) -> (FclibError, String) {
    let e = read_problem(path).expect_err("bad file must be an error");
    let s = e.to_string();
    (e, s)
}

/// Bad files give typed errors that name the file and the dataset; never a panic.
#[test]
fn bad_files_give_typed_errors() {
    let dir = tempfile::tempdir().unwrap();
    // Missing file.
    let missing = dir.path().join("nope.hdf5");
    let (e, s) = err_string(&missing);
    assert!(
        matches!(e, FclibError::Open { .. }) && s.contains("nope.hdf5"),
        "{s}"
    );
    // Not HDF5.
    let text = dir.path().join("text.hdf5");
    std::fs::write(&text, "not an hdf5 file").unwrap();
    let (e, s) = err_string(&text);
    assert!(
        matches!(e, FclibError::Open { .. }) && s.contains("text.hdf5"),
        "{s}"
    );
    // HDF5 without FCLIB groups.
    let other = dir.path().join("other.hdf5");
    hdf5::File::create(&other)
        .unwrap()
        .create_group("something")
        .unwrap();
    let (e, _) = err_string(&other);
    assert!(matches!(e, FclibError::NotFclib { .. }));

    // Start from a valid small problem written by us, then damage it with the hdf5 crate.
    let (p, _) = read_problem(data("local_problem_test.hdf5")).unwrap();
    let damaged = |name: &str, edit: &dyn Fn(&hdf5::File)| {
        let path = dir.path().join(name);
        write_problem(&path, &p, None, SparseFormat::Csc).unwrap();
        let f = hdf5::File::append(&path).unwrap();
        edit(&f);
        drop(f);
        path
    };
    let path = damaged("no_q.hdf5", &|f| f.unlink("fclib_local/vectors/q").unwrap());
    let (e, s) = err_string(&path);
    assert!(
        matches!(&e, FclibError::Missing { path, .. } if path == "/fclib_local/vectors/q"),
        "{s}"
    );
    assert!(s.contains("no_q.hdf5"), "{s}");

    let path = damaged("short_q.hdf5", &|f| {
        f.unlink("fclib_local/vectors/q").unwrap();
        f.group("fclib_local/vectors")
            .unwrap()
            .new_dataset_builder()
            .with_data(&[1.0f64; 10][..])
            .create("q")
            .unwrap();
    });
    let (e, s) = err_string(&path);
    assert!(
        matches!(
            e,
            FclibError::Problem {
                source: ProblemError::Shape {
                    what: "length of q",
                    expected: 144,
                    found: 10
                },
                ..
            }
        ),
        "{s}"
    );

    let path = damaged("bad_index.hdf5", &|f| {
        f.unlink("fclib_local/W/i").unwrap();
        f.group("fclib_local/W")
            .unwrap()
            .new_dataset_builder()
            .with_data(&vec![500i32; 4896][..])
            .create("i")
            .unwrap();
    });
    let (e, s) = err_string(&path);
    assert!(
        matches!(&e, FclibError::Invalid { path, .. } if path == "/fclib_local/W"),
        "{s}"
    );
    assert!(s.contains("out of range"), "{s}");

    let path = damaged("string_x.hdf5", &|f| {
        f.unlink("fclib_local/W/x").unwrap();
        let ds = f
            .group("fclib_local/W")
            .unwrap()
            .new_dataset::<hdf5::types::VarLenUnicode>()
            .create("x")
            .unwrap();
        ds.write_scalar(&"abc".parse::<hdf5::types::VarLenUnicode>().unwrap())
            .unwrap();
    });
    let (e, s) = err_string(&path);
    assert!(
        matches!(&e, FclibError::Invalid { path, .. } if path == "/fclib_local/W/x"),
        "{s}"
    );

    let path = damaged("bad_nz.hdf5", &|f| {
        f.unlink("fclib_local/W/nz").unwrap();
        f.group("fclib_local/W")
            .unwrap()
            .new_dataset_builder()
            .with_data(&[-7i32][..])
            .create("nz")
            .unwrap();
    });
    let (_, s) = err_string(&path);
    assert!(s.contains("nz = -7") && s.contains("/fclib_local/W"), "{s}");

    let path = damaged("neg_mu.hdf5", &|f| {
        f.unlink("fclib_local/vectors/mu").unwrap();
        f.group("fclib_local/vectors")
            .unwrap()
            .new_dataset_builder()
            .with_data(&[-1.0f64; 48][..])
            .create("mu")
            .unwrap();
    });
    let (e, _) = err_string(&path);
    assert!(matches!(
        e,
        FclibError::Problem {
            source: ProblemError::Friction { contact: 0, .. },
            ..
        }
    ));

    // Truncated triplet arrays (nz = 5, two entries stored; written by h5py:
    // tests/data/fclib/make_fixtures.py).
    let (e, s) = err_string(&data("bad/truncated-triplet.hdf5"));
    assert!(
        matches!(&e, FclibError::Invalid { path, .. } if path == "/fclib_local/W"),
        "{s}"
    );
}

/// A problem built in memory (2D) round-trips too, and a bad problem is refused.
#[test]
fn two_dimensional_problem_round_trip() {
    let (w, q, mu) = common::random_problem(2, 5, 0.4, 7);
    let p = LocalProblem::new(2, w.clone(), q.clone(), mu.clone()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p2.hdf5");
    let info = ProblemInfo {
        title: "t".into(),
        description: "ü — d".into(),
        math_info: String::new(),
    };
    write_problem(
        &out,
        &FclibProblem::Local(p.clone()),
        Some(&info),
        SparseFormat::Triplet,
    )
    .unwrap();
    let (back, info_back) = read_problem(&out).unwrap();
    assert_same_problem(&FclibProblem::Local(p), &back);
    assert_eq!(info_back.unwrap(), info);
    assert!(matches!(
        LocalProblem::new(4, w.clone(), q.clone(), mu.clone()),
        Err(ProblemError::Dimension(4))
    ));
    assert!(matches!(
        LocalProblem::new(2, w, q[..9].to_vec(), mu),
        Err(ProblemError::Shape { .. })
    ));
}
