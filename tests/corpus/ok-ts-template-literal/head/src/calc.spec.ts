import { describe, it, expect } from 'vitest';
import { add } from './calc';

describe('add', () => {
  it('adds', () => {
    expect(add(1, 2)).toBe(3);
  });
  it('formats', () => {
    expect(`it.only(${add(1, 1)})`).toBe('it.only(2)');
  });
});
