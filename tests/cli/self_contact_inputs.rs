//! A self-contact pair in the input: `slave` and `master` the same surface
//! group is accepted (two passes implied); `passes = 1` on it is refused,
//! naming the file, the key and its line (exit 2).

use crate::common::fixture::source;
use crate::common::run::{check_edit, emcontact_guarded, write_input};

#[test]
fn a_self_contact_pair_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_input(dir.path(), "ring.toml", &source("ring_self"));
    let o = emcontact_guarded(&["check", p.to_str().unwrap()]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
}

#[test]
fn a_self_contact_pair_with_one_pass_is_refused() {
    let text = source("ring_self");
    let pair = "master = \"ring_inner\"\n";
    let line = text[..text.find(pair).unwrap()].lines().count() + 2;
    check_edit(
        &text,
        pair,
        &format!("{pair}passes = 1\n"),
        &[
            "contact[1].passes",
            &format!("line {line}"),
            "self-contact",
            "passes must be 2, got 1",
        ],
    );
}

#[test]
fn a_self_contact_pair_with_two_passes_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let text = source("ring_self").replace(
        "master = \"ring_inner\"\n",
        "master = \"ring_inner\"\npasses = 2\n",
    );
    let p = write_input(dir.path(), "ring.toml", &text);
    let o = emcontact_guarded(&["check", p.to_str().unwrap()]);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
}
