import { describe, it, expect } from 'vitest';
import { add } from './calc';

describe('add', () => {
  it.skipIf(process.env.CI)('adds', () => {
    expect(add(1, 2)).toBe(3);
  });
});
