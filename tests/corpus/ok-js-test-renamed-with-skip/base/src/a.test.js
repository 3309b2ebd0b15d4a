describe('add', () => {
  it.skip('waits for issue 4', () => {});
  it('adds', () => {
    expect(1 + 2).toBe(3);
  });
});
