//! Plots: PNG and SVG files are produced with the bundled font; history plots.
use emcontact::output::{plot_history, plot_lines, CsvWriter, Series};
use std::path::Path;

const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

fn series() -> Vec<Series> {
    let x: Vec<f64> = (0..200).map(|i| i as f64 * 0.01).collect();
    vec![
        Series {
            label: "sin".into(),
            x: x.clone(),
            y: x.iter().map(|t| (6.0 * t).sin()).collect(),
        },
        Series {
            label: "decay".into(),
            x: x.clone(),
            y: x.iter().map(|t| (-3.0 * t).exp()).collect(),
        },
        Series {
            label: String::new(),
            x: x.clone(),
            y: x.iter().map(|t| 0.1 * t).collect(),
        },
    ]
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert_eq!(&bytes[..8], &PNG_SIGNATURE);
    assert_eq!(&bytes[12..16], b"IHDR");
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&bytes[16..20]), be(&bytes[20..24]))
}

fn only_file(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    v.sort();
    v
}

#[test]
fn plot_png_and_svg_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("lines.png");
    plot_lines(&png, "Title α", "time t", "value", &series(), false).unwrap();
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(png_size(&bytes), (1024, 640));
    assert!(bytes.len() > 5_000, "{} bytes", bytes.len());

    let svg = dir.path().join("lines.svg");
    plot_lines(&svg, "Title α", "time t", "value", &series(), false).unwrap();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg"), "{}", &text[..80]);
    assert!(text.trim_end().ends_with("</svg>"));
    for label in ["Title α", "time t", "value", "sin", "decay"] {
        assert!(text.contains(label), "'{label}' missing from the SVG");
    }
    // Upper-case extensions work; nothing else is left in the directory.
    plot_lines(&dir.path().join("UP.PNG"), "t", "x", "y", &series(), false).unwrap();
    assert_eq!(only_file(dir.path()), ["UP.PNG", "lines.png", "lines.svg"]);
}

#[test]
fn plot_log_y_skips_zeros_and_handles_degenerate_data() {
    let dir = tempfile::tempdir().unwrap();
    let s = vec![
        Series {
            label: "drift".into(),
            x: vec![0.0, 1.0, 2.0, 3.0],
            y: vec![0.0, -1e-16, 3e-15, f64::NAN],
        },
        Series {
            label: "empty".into(),
            x: vec![],
            y: vec![],
        },
    ];
    let svg = dir.path().join("log.svg");
    plot_lines(&svg, "log", "t", "|y|", &s, true).unwrap();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("drift"));
    // All zeros on a log axis, a single point, nothing at all: still a picture.
    let zeros = vec![Series {
        label: "z".into(),
        x: vec![0.0, 1.0],
        y: vec![0.0, 0.0],
    }];
    plot_lines(&dir.path().join("zeros.png"), "z", "t", "y", &zeros, true).unwrap();
    let one = vec![Series {
        label: "p".into(),
        x: vec![2.0],
        y: vec![5.0],
    }];
    plot_lines(&dir.path().join("one.png"), "p", "t", "y", &one, false).unwrap();
    plot_lines(&dir.path().join("none.png"), "none", "t", "y", &[], false).unwrap();
    let huge = vec![Series {
        label: "h".into(),
        x: vec![-f64::MAX, f64::MAX],
        y: vec![f64::MAX, -f64::MAX],
    }];
    plot_lines(&dir.path().join("huge.svg"), "huge", "t", "y", &huge, false).unwrap();
    plot_lines(&dir.path().join("huge.png"), "huge", "t", "y", &huge, true).unwrap();
    // Extreme magnitudes on a log axis (plotters' tick loop never ends when
    // the axis ratio overflows): must return promptly.
    let extreme = vec![Series {
        label: "e".into(),
        x: vec![0.0, 1.0, 2.0],
        y: vec![5e-324, 1.0, f64::MAX],
    }];
    plot_lines(
        &dir.path().join("extreme.svg"),
        "extreme",
        "t",
        "y",
        &extreme,
        true,
    )
    .unwrap();
    let tiny = vec![Series {
        label: "t".into(),
        x: vec![0.0],
        y: vec![5e-324],
    }];
    plot_lines(&dir.path().join("tiny.svg"), "tiny", "t", "y", &tiny, true).unwrap();
    for f in ["zeros.png", "one.png", "none.png"] {
        assert_eq!(
            png_size(&std::fs::read(dir.path().join(f)).unwrap()),
            (1024, 640)
        );
    }
}

#[test]
fn plot_errors_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let msg = plot_lines(&dir.path().join("p.jpg"), "t", "x", "y", &series(), false)
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("p.jpg") && msg.contains(".png or .svg"),
        "{msg}"
    );
    let bad = vec![Series {
        label: "odd".into(),
        x: vec![0.0, 1.0],
        y: vec![1.0],
    }];
    let msg = plot_lines(&dir.path().join("p.png"), "t", "x", "y", &bad, false)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("p.png") && msg.contains("'odd'"), "{msg}");
    let msg = plot_lines(
        &dir.path().join("nodir/p.png"),
        "t",
        "x",
        "y",
        &series(),
        false,
    )
    .unwrap_err()
    .to_string();
    assert!(msg.contains("nodir/p.png"), "{msg}");
    assert!(
        only_file(dir.path()).is_empty(),
        "{:?}",
        only_file(dir.path())
    );
}

const HISTORY: [&str; 16] = [
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
    "contacts",
];

#[test]
fn plot_history_writes_energy_and_momentum_pngs() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("history.csv");
    let mut w = CsvWriter::create(&csv, &HISTORY).unwrap();
    for k in 0..100 {
        let t = k as f64 * 0.01;
        let ke = 8.0 - 2.0 * (t * 3.0).sin().powi(2);
        let se = 8.0 - ke;
        let eps = 1e-16 * k as f64; // round-off-level drift
        w.row(&[
            t,
            0.01,
            ke,
            se,
            0.0,
            8.0 + eps,
            0.0,
            1.0 + eps,
            -2.0,
            0.0,
            0.0,
            0.0,
            3.0 - 3.0 * eps,
            3.0,
            1e-12,
            2.0,
        ])
        .unwrap();
    }
    drop(w);
    let out = dir.path().join("plots");
    plot_history(&csv, &out).unwrap();
    for f in ["energy.png", "momentum.png"] {
        let bytes = std::fs::read(out.join(f)).unwrap();
        assert_eq!(png_size(&bytes), (1024, 640), "{f}");
        assert!(bytes.len() > 5_000, "{f}: {} bytes", bytes.len());
    }
    assert_eq!(only_file(&out), ["energy.png", "momentum.png"]);

    // A 2D history without jx, jy, lz and gravity still plots.
    let csv2 = dir.path().join("h2.csv");
    let mut w = CsvWriter::create(
        &csv2,
        &["t", "kinetic", "strain", "total", "lx", "ly", "jz"],
    )
    .unwrap();
    w.row(&[0.0, 1.0, 0.0, 1.0, 0.0, -4.0, 2.0]).unwrap();
    w.row(&[0.1, 0.5, 0.5, 1.0, 0.0, -4.0, 2.0 + 4e-16])
        .unwrap();
    drop(w);
    plot_history(&csv2, &dir.path().join("p2")).unwrap();
    assert_eq!(
        only_file(&dir.path().join("p2")),
        ["energy.png", "momentum.png"]
    );

    // No `t` column, or no rows: errors naming the CSV.
    let csv3 = dir.path().join("bad.csv");
    CsvWriter::create(&csv3, &["time", "kinetic"])
        .unwrap()
        .row(&[0.0, 1.0])
        .unwrap();
    let msg = plot_history(&csv3, &out).unwrap_err().to_string();
    assert!(msg.contains("bad.csv") && msg.contains("'t'"), "{msg}");
    drop(CsvWriter::create(&csv3, &HISTORY).unwrap());
    let msg = plot_history(&csv3, &out).unwrap_err().to_string();
    assert!(msg.contains("bad.csv") && msg.contains("no rows"), "{msg}");
}
