import { describe, expect, it } from 'vitest';
import { englishNumber } from './english-number';

describe('englishNumber', () => {
  it("says what Intl.NumberFormat('en-US') says of whole numbers", () => {
    const format = new Intl.NumberFormat('en-US');
    const values = [0, 7, 42, 999, 1000, 1001, 12_345, 100_000, 999_999, 1_000_000, 1_234_567_890, -1, -1234, Number.MAX_SAFE_INTEGER];
    for (let n = 1; n < 1e15; n = n * 7 + 3) values.push(n);
    for (const value of values) expect(englishNumber(value), String(value)).toBe(format.format(value));
  });
});
