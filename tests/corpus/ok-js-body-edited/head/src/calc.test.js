const { add } = require('./calc');

describe('add', () => {
  it('adds', () => {
    expect(add(1, 2)).toEqual(3);
  });

  it('negates', () => {
    expect(add(-1, 1)).toBe(0);
  });
});
