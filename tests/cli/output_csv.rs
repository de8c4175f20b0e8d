//! CSV histories: bit-exact round trip, flushing, text columns, errors.
use emcontact::output::{read_csv, CsvWriter, OutputError};

/// Values that break naive formatting: extremes, subnormals, signed zero,
/// non-terminating binary fractions, integers past 2^53.
fn awkward() -> Vec<f64> {
    vec![
        1e-300,
        -0.0,
        1.0 / 3.0,
        1e17 + 1.0,
        0.1 + 0.2,
        f64::MIN_POSITIVE,
        5e-324,
        f64::MAX,
        -2.0f64.powi(60) - 2048.0,
        std::f64::consts::PI * 1e-8,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ]
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn csv_round_trips_awkward_floats_bit_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.csv");
    let row = awkward();
    let names: Vec<String> = (0..row.len()).map(|i| format!("c{i}")).collect();
    let header: Vec<&str> = names.iter().map(|s| s.as_str()).collect();
    let mut w = CsvWriter::create(&path, &header).unwrap();
    w.row(&row).unwrap();
    let reversed: Vec<f64> = row.iter().rev().map(|x| -x).collect();
    w.row(&reversed).unwrap();
    drop(w);

    let t = read_csv(&path).unwrap();
    assert_eq!(t.header, names);
    assert_eq!(t.rows.len(), 2);
    assert_eq!(bits(&t.rows[0]), bits(&row));
    assert_eq!(bits(&t.rows[1]), bits(&reversed));
    assert_eq!(
        bits(&t.column("c2").unwrap()),
        bits(&[1.0 / 3.0, reversed[2]])
    );
    // Scientific form keeps lines short (`{}` would print 1e-300 with 300 digits).
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.lines()
            .nth(1)
            .unwrap()
            .starts_with("1e-300,-0e0,3.333333333333333e-1,"),
        "{text}"
    );
    assert!(text.len() < 600, "{} bytes", text.len());

    // NaN survives as NaN.
    let mut w = CsvWriter::create(&path, &["a", "b"]).unwrap();
    w.row(&[f64::NAN, 1.0]).unwrap();
    let t = read_csv(&path).unwrap();
    assert!(t.rows[0][0].is_nan() && t.rows[0][1] == 1.0);
}

#[test]
fn csv_every_completed_row_is_on_disk_while_writing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.csv");
    let mut w = CsvWriter::create(&path, &["t", "e"]).unwrap();
    assert_eq!(read_csv(&path).unwrap().rows.len(), 0);
    for k in 0..5 {
        w.row(&[k as f64 * 0.1, 1.0 - k as f64]).unwrap();
        // The writer is still open: the row must already be readable.
        let t = read_csv(&path).unwrap();
        assert_eq!(t.rows.len(), k + 1);
        assert_eq!(t.rows[k][0].to_bits(), (k as f64 * 0.1).to_bits());
    }
}

#[test]
fn csv_wrong_row_length_is_an_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("short.csv");
    let mut w = CsvWriter::create(&path, &["a", "b", "c"]).unwrap();
    w.row(&[1.0, 2.0, 3.0]).unwrap();
    let err = w.row(&[1.0, 2.0]).unwrap_err();
    assert!(matches!(err, OutputError::Format { .. }));
    let msg = err.to_string();
    assert!(
        msg.contains("short.csv") && msg.contains("2 values") && msg.contains("3 columns"),
        "{msg}"
    );
    assert!(w.row(&[1.0, 2.0, 3.0, 4.0]).is_err());
    // Nothing of the rejected rows reached the file; writing continues.
    w.row(&[4.0, 5.0, 6.0]).unwrap();
    let t = read_csv(&path).unwrap();
    assert_eq!(t.rows, vec![vec![1.0, 2.0, 3.0], vec![4.0, 5.0, 6.0]]);

    // Reading: a short row in the middle names file and line.
    std::fs::write(&path, "a,b\n1e0,2e0\n3e0\n4e0,5e0\n").unwrap();
    let msg = read_csv(&path).unwrap_err().to_string();
    assert!(msg.contains("short.csv") && msg.contains("line 3"), "{msg}");
    // A last line cut off mid-write (no line end, too few cells) is skipped.
    std::fs::write(&path, "a,b\n1e0,2e0\n3e").unwrap();
    assert_eq!(read_csv(&path).unwrap().rows, vec![vec![1.0, 2.0]]);
    // Empty file, missing file.
    std::fs::write(&path, "").unwrap();
    assert!(read_csv(&path)
        .unwrap_err()
        .to_string()
        .contains("short.csv"));
    let missing = dir.path().join("missing.csv");
    let err = read_csv(&missing).unwrap_err();
    assert!(matches!(err, OutputError::Io { .. }) && err.to_string().contains("missing.csv"));
    let err = CsvWriter::create(&dir.path().join("no/dir.csv"), &["a"]).unwrap_err();
    assert!(err.to_string().contains("no/dir.csv"), "{err}");
}

#[test]
fn csv_text_field_lands_in_column_at_and_reads_back_as_nan() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bodies.csv");
    let mut w = CsvWriter::create(&path, &["t", "body", "mass", "ke"]).unwrap();
    w.row_with_text(1, "ring_1", &[0.5, 2.0, 1.0 / 3.0])
        .unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text.lines().nth(1).unwrap(),
        "5e-1,ring_1,2e0,3.333333333333333e-1"
    );
    let mut w2 = CsvWriter::create(&path, &["name", "x"]).unwrap();
    w2.row_with_text(0, "first", &[1.0]).unwrap();
    w2.row_with_text(1, "last", &[2.0]).unwrap();
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "name,x\nfirst,1e0\n2e0,last\n"
    );
    let t = read_csv(&path).unwrap();
    assert!(t.rows[0][0].is_nan() && t.rows[0][1] == 1.0);
    assert!(t.rows[1][0] == 2.0 && t.rows[1][1].is_nan());

    // Wrong counts, `at` past the end, and text that would break the format.
    assert!(w2.row_with_text(0, "x", &[1.0, 2.0]).is_err());
    assert!(w2.row_with_text(2, "x", &[1.0]).is_err());
    let msg = w2.row_with_text(0, "a,b", &[1.0]).unwrap_err().to_string();
    assert!(msg.contains("bodies.csv") && msg.contains("comma"), "{msg}");
    assert!(CsvWriter::create(&path, &["a,b"]).is_err());
}
