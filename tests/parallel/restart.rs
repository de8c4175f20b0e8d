//! Checkpoint and restart on two ranks: bit for bit.

use crate::harness::{bar, input, mpirun};

#[test]
fn a_restart_on_two_ranks_continues_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    let model = |end| {
        let output = "every = 2\ncheckpoint_every = 3";
        bar(end, "tolerance = 1e-11", output, "[8, 2, 2]", "neo-hookean")
    };
    let full = input(dir.path(), "full.toml", &model(3.0));
    let short = input(dir.path(), "short.toml", &model(1.5));
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let run = |input: &std::path::Path, flag: &str, out: &std::path::Path| {
        let o = mpirun(
            2,
            &[
                "run",
                input.to_str().unwrap(),
                flag,
                out.to_str().unwrap(),
                "-q",
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run(&full, "--out", &a);
    run(&short, "--out", &b);
    // continues from the checkpoint of step 6 (t = 1.5) to the end
    run(&full, "--restart", &b);
    for f in [
        "history.csv",
        "bodies.csv",
        "flight.pvd",
        "flight_00006.pvtu",
        "flight_00006_00001.vtu",
    ] {
        assert_eq!(
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
            "{f} differs after the restart"
        );
    }
}
