import { test } from 'node:test';
import assert from 'node:assert';

test('adds', { only: true }, () => {
  assert.equal(1 + 2, 3);
});
