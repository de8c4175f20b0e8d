//! Contact on the iterative linear path (`[solver] linear = "iterative"`):
//! the saddle-point system solved by GMRES with the coupled block-Jacobi
//! preconditioner (each slave node with its point's multipliers in one
//! block, docs/decisions/iterative-contact.md) lands the scaling family's
//! first contact as the direct path does.

use crate::common::validation::{assert_first_contact_holds, first_contact};

#[test]
fn first_contact_on_the_iterative_path_holds_the_law_and_the_ledgers() {
    let text = first_contact(8, &["--linear", "iterative"]);
    assert!(text.contains("linear = \"iterative\""), "{text}");
    assert_first_contact_holds("8² iterative", &text);
}
