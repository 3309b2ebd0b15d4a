import { test } from 'node:test';
import assert from 'node:assert';

test('adds', { skip: 'flaky' }, () => {
  assert.equal(1 + 2, 3);
});
