import { describe, expect, it } from 'vitest';
import { formatPrice, formatRating, fullName, teacherCount, toFiltersState } from './format';

describe('format', () => {
  it('formats an hourly price as the original does', () => {
    expect(formatPrice(30)).toBe('30$');
    expect(formatPrice(27.5)).toBe('27.5$');
  });

  it('writes a rating with one decimal', () => {
    expect(formatRating(5)).toBe('5.0');
    expect(formatRating(4.8)).toBe('4.8');
    expect(formatRating(3)).toBe('3.0');
  });

  it('turns typed URL filters into the slice shape', () => {
    expect(toFiltersState({})).toEqual({ q: '', sort: '', language: '', level: '', country: '', price_min: '', price: '', search: '' });
    expect(
      toFiltersState({ q: 'chloe', sort: 'price-asc', language: 'French', level: 'B1 Intermediate', country: 'Canada', price_min: 20, price_max: 30 }),
    ).toEqual({
      q: 'chloe',
      sort: 'price-asc',
      language: 'French',
      level: 'B1 Intermediate',
      country: 'Canada',
      price_min: '20',
      price: '30',
      search: 'q=chloe&sort=price-asc&language=French&level=B1+Intermediate&country=Canada&price_min=20&price_max=30',
    });
  });

  it('counts teachers in words', () => {
    expect(teacherCount(0)).toBe('0 teachers');
    expect(teacherCount(1)).toBe('1 teacher');
    expect(teacherCount(12)).toBe('12 teachers');
  });

  it('joins a full name', () => {
    expect(fullName({ name: 'Jane', surname: 'Smith' })).toBe('Jane Smith');
  });
});
