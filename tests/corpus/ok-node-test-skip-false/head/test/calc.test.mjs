import { test } from 'node:test';
import assert from 'node:assert';

test('adds', () => {
  assert.equal(1 + 2, 3);
});

test('subtracts', { skip: false }, () => {
  assert.equal(3 - 1, 2);
});
