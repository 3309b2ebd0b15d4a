const sum = require('../src/sum');

test('adds', () => {
  expect(sum(1, 2)).toBe(3);
});
