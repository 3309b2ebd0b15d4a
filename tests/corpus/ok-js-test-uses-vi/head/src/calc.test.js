import { vi } from 'vitest';
const { add } = require('./calc');

test('adds', () => {
  vi.useFakeTimers();
  expect(add(1, 2)).toBe(3);
});
