import { describe, expect, it } from 'vitest';
import { SORT_ORDERS, startPosition } from './sort-orders.js';

const ANY = { min: Number.NEGATIVE_INFINITY, max: Number.POSITIVE_INFINITY };

describe('startPosition: where a first page starts', () => {
  it('before every row without a price bound, and in the orders that are not by price', () => {
    for (const order of Object.values(SORT_ORDERS)) expect(startPosition(order, ANY)).toEqual({ value: order.start, id: '' });
    for (const sort of ['rating', 'lessons', 'relevance'] as const) {
      const order = SORT_ORDERS[sort];
      expect(startPosition(order, { min: 20, max: 40 })).toEqual({ value: order.start, id: '' });
    }
  });

  it('price-asc: at the lower bound, so (price, id) > (min, "") keeps the teachers at exactly min', () => {
    expect(startPosition(SORT_ORDERS['price-asc'], { min: 20, max: 40 })).toEqual({ value: 20, id: '' });
    expect(startPosition(SORT_ORDERS['price-asc'], { ...ANY, max: 40 })).toEqual({ value: -Infinity, id: '' });
  });

  it.each([40, 0.5, 25.75, 1e9, 0, -3])(
    'price-desc at most %d: just above the bound, the next float8, so (price, id) < (that, "") keeps the teachers at exactly max',
    (max) => {
      const { value, id } = startPosition(SORT_ORDERS['price-desc'], { ...ANY, max });
      expect(id).toBe('');
      expect(value).toBeGreaterThan(max);
      // nothing between: the midpoint rounds to one of the two
      expect([max, value]).toContain(max + (value - max) / 2);
    },
  );
});
