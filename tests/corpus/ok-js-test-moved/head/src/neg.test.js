const { add } = require('./calc');

describe('add', () => {
  it('negates', () => {
    expect(add(-1, 1)).toBe(0);
  });
});
