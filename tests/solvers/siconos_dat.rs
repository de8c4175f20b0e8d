//! Siconos' text problem files (`.dat`): the problem read directly is the one
//! Siconos' own FCLIB writer produced, bit for bit; the general (global) layout and
//! CSparse printouts; bad files exit 2 naming the line; `fc convert` and `fc solve`.

use std::path::{Path, PathBuf};
use std::process::Command;

use emcontact::nonsmooth::fclib::{self, FclibProblem};
use emcontact::nonsmooth::files::{self, Format};
use emcontact::nonsmooth::siconos_dat::{parse, read_dat, DatError};
use faer::sparse::SparseColMat;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/siconos-dat")
        .join(name)
}

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_emcontact")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("emcontact-siconos-dat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Dense copy of a sparse matrix, entries as bit patterns (+0 where none is stored).
fn dense_bits(a: &SparseColMat<usize, f64>) -> Vec<u64> {
    let mut out = vec![0u64; a.nrows() * a.ncols()];
    let (cp, ri, v) = (a.symbolic().col_ptr(), a.symbolic().row_idx(), a.val());
    for j in 0..a.ncols() {
        for k in cp[j]..cp[j + 1] {
            let slot = &mut out[j * a.nrows() + ri[k]];
            *slot = (f64::from_bits(*slot) + v[k]).to_bits();
        }
    }
    out
}

fn bits(x: &[f64]) -> Vec<u64> {
    x.iter().map(|v| v.to_bits()).collect()
}

fn local(p: FclibProblem) -> emcontact::nonsmooth::problem::LocalProblem {
    match p {
        FclibProblem::Local(p) => p,
        FclibProblem::Global(_) => panic!("expected a local problem"),
    }
}

/// The 25 Siconos text problems of the public Siconos test data, each beside its
/// conversion by Siconos 4.5.0's own FCLIB writer (`tests/data/siconos-dat/`; a
/// `.hdf5.dat` original is stored as `.dat`).
const PROBLEMS: [&str; 25] = [
    "BoxesStack1-i100000-32",
    "Capsules-i100-1090",
    "Capsules-i100-889",
    "Capsules-i101-404",
    "Capsules-i103-990",
    "Capsules-i122-1617",
    "FrictionContact3D_RR_1c",
    "KaplasTower-i1061-4",
    "OneObject-i100000-316",
    "OneObject-i100000-499",
    "OneObject-i1028-138",
    "Rover1039",
    "Rover1040",
    "Rover1041",
    "Rover11035",
    "Rover11211",
    "Rover3865",
    "Rover4144",
    "Rover4396",
    "Rover4493",
    "Rover4516",
    "Rover4609",
    "Rover4613",
    "Rover4622",
    "Rover9770",
];

#[test]
fn dat_reads_the_same_problem_as_siconos_fclib_conversion_bit_for_bit() {
    for name in PROBLEMS {
        let (dat, h5) = (format!("{name}.dat"), format!("{name}.hdf5"));
        assert_eq!(files::format_of(&data(&dat)), Format::SiconosText, "{dat}");
        assert_eq!(files::format_of(&data(&h5)), Format::FclibHdf5, "{h5}");
        let a = local(read_dat(data(&dat)).unwrap());
        let b = local(fclib::read_problem(data(&h5)).unwrap().0);
        assert_eq!((a.dim, a.n_contacts), (b.dim, b.n_contacts), "{dat}");
        assert_eq!(a.w.nrows(), b.w.nrows(), "{dat}");
        assert_eq!(dense_bits(&a.w), dense_bits(&b.w), "{dat}: W differs");
        assert_eq!(bits(&a.q), bits(&b.q), "{dat}: q differs");
        assert_eq!(bits(&a.mu), bits(&b.mu), "{dat}: mu differs");
    }
}

#[test]
fn dense_matrices_are_column_major() {
    // Rover11035's W is not exactly symmetric: W[0][1] and W[1][0] differ, and the
    // file lists W[0][0], W[1][0], W[2][0], … (column-major), so the second number is
    // W[1][0].
    let p = local(read_dat(data("Rover11035.dat")).unwrap());
    let w = |i: usize, j: usize| {
        let (cp, ri, v) = (
            p.w.symbolic().col_ptr(),
            p.w.symbolic().row_idx(),
            p.w.val(),
        );
        (cp[j]..cp[j + 1])
            .find(|&k| ri[k] == i)
            .map(|k| v[k])
            .unwrap()
    };
    assert_eq!(w(1, 0), -1.426574206813656375825161e-04);
    assert_eq!(w(0, 1), -1.438285701497408206397943e-04);
}

/// A global problem in Siconos' layout: M dense 4 × 4 (diagonal 2), H sparse-block
/// 4 × 6 (two 2 × 3 blocks), f, w, μ — in 3D with 2 contacts.
const GLOBAL: &str = "3
2
0
4
4
4\t4
2 0 0 0
0 2 0 0
0 0 2 0
0 0 0 2
1
4
6
2
2
2
2\t4\t
3\t6\t
3
2
0\t1\t2\t
0\t1\t
0
1 0 0 1 0 0
1
0 1 1 0 0 1
-1.5 0.25 -1 0.5
0.1 0 0 -0.2 0 0
0.3 0.6
";

#[test]
fn global_problems_are_read_in_siconos_layout() {
    let p = match parse(GLOBAL, Path::new("global.dat")).unwrap() {
        FclibProblem::Global(g) => g,
        FclibProblem::Local(_) => panic!("expected a global problem"),
    };
    assert_eq!((p.dim, p.n_contacts, p.n_dofs()), (3, 2, 4));
    let m = dense_bits(&p.m);
    for i in 0..4 {
        for j in 0..4 {
            let want = if i == j { 2.0f64 } else { 0.0 };
            assert_eq!(m[j * 4 + i], want.to_bits());
        }
    }
    // Block 0 (rows 0–1, columns 0–2), column-major: [[1, 0, 0], [0, 1, 0]].
    // Block 1 (rows 2–3, columns 3–5): [[0, 1, 0], [1, 0, 1]].
    let h = dense_bits(&p.h);
    let hv = |i: usize, j: usize| f64::from_bits(h[j * 4 + i]);
    assert_eq!(
        (hv(0, 0), hv(1, 1), hv(0, 1), hv(1, 0)),
        (1.0, 1.0, 0.0, 0.0)
    );
    assert_eq!((hv(0, 2), hv(1, 2)), (0.0, 0.0));
    assert_eq!(
        (hv(2, 3), hv(3, 3), hv(2, 4), hv(3, 4), hv(3, 5)),
        (0.0, 1.0, 1.0, 0.0, 1.0)
    );
    assert_eq!((hv(0, 3), hv(2, 0)), (0.0, 0.0));
    assert_eq!(p.f, vec![-1.5, 0.25, -1.0, 0.5]);
    assert_eq!(p.w, vec![0.1, 0.0, 0.0, -0.2, 0.0, 0.0]);
    assert_eq!(p.mu, vec![0.3, 0.6]);
}

#[test]
fn csparse_printouts_are_read() {
    // W = diag(1, 2, 3) as Siconos prints a CSC matrix (origin code 2 = NSM_CSC).
    let csc = "3\n1\n2\n3\n3\n2\nCSparse Version 3.2.0, Sept 12, 2017.  Copyright (c) Timothy A. Davis, 2006-2016\n\
3-by-3, nzmax: 3 nnz: 3, 1-norm: 3\n    col 0 : locations 0 to 0\n      0 : 1\n    col 1 : locations 1 to 1\n\
      1 : 2\n    col 2 : locations 2 to 2\n      2 : 3\n-1 0 0\n0.5\n";
    let triplet = "3\n1\n2\n3\n3\n1\nCSparse Version 3.2.0, Sept 12, 2017.  Copyright (c) Timothy A. Davis, 2006-2016\n\
triplet: 3-by-3, nzmax: 3 nnz: 3\n    0 0 : 1\n    1 1 : 2\n    2 2 : 3\n-1 0 0\n0.5\n";
    for text in [csc, triplet] {
        let p = local(parse(text, Path::new("w.dat")).unwrap());
        let d = dense_bits(&p.w);
        for (i, want) in [1.0f64, 2.0, 3.0].iter().enumerate() {
            assert_eq!(d[i * 3 + i], want.to_bits());
        }
        assert_eq!(d.iter().filter(|&&b| b != 0).count(), 3);
        assert_eq!(
            (p.q.clone(), p.mu.clone()),
            (vec![-1.0, 0.0, 0.0], vec![0.5])
        );
    }
}

#[test]
fn bad_files_name_the_line() {
    let good = std::fs::read_to_string(data("FrictionContact3D_RR_1c.dat")).unwrap();
    // (mutation, line the error must name, words it must contain)
    let cases: Vec<(String, usize, &str)> = vec![
        (good.replacen("3\n1\n", "4\n1\n", 1), 1, "expected 2 or 3"),
        (
            good.replacen("\n0\n3\n3\n", "\n7\n3\n3\n", 1),
            4,
            "storage code 7",
        ),
        (
            good.replacen("0.1061", "0.10x61", 1),
            16,
            "expected a number",
        ),
        (good.replacen("0.1061", "nan", 1), 16, "finite"),
        (good.replacen("\n\n3\n3\n", "\n\n3\n4\n", 1), 8, "differs"),
        (
            good.lines().take(20).collect::<Vec<_>>().join("\n"),
            20,
            "end of file",
        ),
    ];
    for (k, (text, line, words)) in cases.iter().enumerate() {
        let path = scratch(&format!("bad{k}.dat"));
        std::fs::write(&path, text).unwrap();
        let e = read_dat(&path).unwrap_err();
        assert_eq!(e.line(), Some(*line), "case {k}: {e}");
        assert!(e.to_string().contains(words), "case {k}: {e}");
        assert!(matches!(e, DatError::Syntax { .. }));
        for args in [vec!["fc", "solve"], vec!["fc", "convert"]] {
            let mut cmd = Command::new(exe());
            cmd.args(&args).arg(&path);
            if args[1] == "convert" {
                cmd.arg(scratch("never.h5"));
            }
            let out = cmd.output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "case {k} {args:?}: {err}");
            let want = format!("{}:{line}:", path.display());
            assert!(err.contains(&want), "case {k} {args:?}: {err} lacks {want}");
        }
    }
}

#[test]
fn convert_writes_the_same_problem_and_solve_reads_dat() {
    let dat = data("OneObject-i100000-499.dat");
    let out = scratch("one.h5");
    let st = Command::new(exe())
        .args(["fc", "convert"])
        .arg(&dat)
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let a = local(read_dat(&dat).unwrap());
    let b = local(fclib::read_problem(&out).unwrap().0);
    assert_eq!(dense_bits(&a.w), dense_bits(&b.w));
    assert_eq!((bits(&a.q), bits(&a.mu)), (bits(&b.q), bits(&b.mu)));
    // `fc solve` on the text file writes an FCLIB file with the problem and /solution.
    let sol = scratch("one-solved.h5");
    let st = Command::new(exe())
        .args(["fc", "solve", "--solver", "nsn-nm-ls", "--output"])
        .arg(&sol)
        .arg(&dat)
        .output()
        .unwrap();
    assert_eq!(
        st.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let c = local(fclib::read_problem(&sol).unwrap().0);
    let s = fclib::read_solution(&sol).unwrap().unwrap();
    let r = s.r.unwrap();
    let e = crate::check::natural_map_error(&c, &r);
    assert!(e <= 1e-8, "error {e} by the independent check");
}
