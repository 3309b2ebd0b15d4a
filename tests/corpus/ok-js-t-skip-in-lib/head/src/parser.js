export function parse(t) {
  t.skip(1);
  return t.todo(2);
}
