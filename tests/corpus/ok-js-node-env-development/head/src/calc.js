const development = process.env.NODE_ENV === 'development';
export function add(a, b) {
  if (development && (typeof a !== 'number' || typeof b !== 'number')) {
    console.warn('add: numbers expected; see the tests in test/calc.test.js');
  }
  return a + b;
}
