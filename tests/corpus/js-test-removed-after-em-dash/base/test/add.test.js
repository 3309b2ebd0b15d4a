const assert = require('assert');
const {add} = require('../index.js');

// Sums — positive, negative and “mixed” signs.
describe('add — sums', () => {
  it('adds', () => {
    assert.equal(add(1, 2), 3);
  });

  it('adds negatives', () => {
    assert.equal(add(-1, -2), -3);
  });
});
