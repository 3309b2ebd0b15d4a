#[test]
fn adds() {
    assert_eq!(calc::add(1, 2), 3);
}
