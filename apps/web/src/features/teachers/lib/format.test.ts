import { describe, expect, it } from 'vitest';
import { formatPrice, fullName, toFiltersState } from './format';

describe('format', () => {
  it('formats an hourly price as the original does', () => {
    expect(formatPrice(30)).toBe('30$');
    expect(formatPrice(27.5)).toBe('27.5$');
  });

  it('turns typed URL filters into the slice shape', () => {
    expect(toFiltersState({})).toEqual({ language: '', level: '', price: '' });
    expect(toFiltersState({ language: 'French', level: 'B1 Intermediate', price: 30 })).toEqual({
      language: 'French',
      level: 'B1 Intermediate',
      price: '30',
    });
  });

  it('joins a full name', () => {
    expect(fullName({ name: 'Jane', surname: 'Smith' })).toBe('Jane Smith');
  });
});
