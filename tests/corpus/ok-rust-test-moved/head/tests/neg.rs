use calc::add;

#[test]
fn negates() {
    assert_eq!(add(-1, 1), 0);
}
