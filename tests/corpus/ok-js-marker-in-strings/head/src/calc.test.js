const { add } = require('./calc');

describe('add', () => {
  it('adds', () => {
    expect(add(1, 2)).toBe(3);
  });

  it('negates', () => {
    expect(add(-1, 1)).toBe(0);
  });
});

const banned = ['it.only(', "xit(", `fdescribe(${1})`];
// it.skip('later') is forbidden
/* test.only( */
