import { describe, expect, it } from 'vitest';
import { filtersToSearch, parseFilters } from './catalogue-query.js';
import type { CatalogueQuery } from './rules.js';
import { teachersQuerySchema } from './teachers.js';
import { TAG_FILTERS, type TagFilter } from './catalogue-filters.js';

/**
 * What the zod schema makes of a URL's query, field by field: invalid fields dropped, then
 * normalised as the server does (`price` is `price_max`, the smaller wins; a minimum above
 * the maximum dropped; relevance only with a search; an empty search none).
 */
function queryBySchema(search: URLSearchParams): CatalogueQuery {
  const shape = teachersQuerySchema.shape;
  const field = <K extends 'q' | TagFilter | 'price' | 'price_min' | 'price_max' | 'sort'>(name: K) => {
    const raw = search.get(name);
    if (raw === null) return undefined;
    const parsed = shape[name].safeParse(name === 'q' ? raw.slice(0, 100) : raw);
    return parsed.success ? parsed.data : undefined;
  };
  const out: CatalogueQuery = {};
  const q = field('q');
  if (q) out.q = q;
  for (const filter of TAG_FILTERS) {
    const value = field(filter);
    if (value) (out as Record<string, string>)[filter] = value;
  }
  const price = field('price');
  const priceMax = field('price_max');
  const max = price === undefined ? priceMax : priceMax === undefined ? price : Math.min(price, priceMax);
  if (max !== undefined) out.price_max = max;
  const min = field('price_min');
  if (min !== undefined && (max === undefined || min <= max)) out.price_min = min;
  const sort = field('sort');
  if (sort && (sort !== 'relevance' || out.q)) out.sort = sort;
  return out;
}

describe('URL query', () => {
  const queries = [
    '',
    'language=French',
    'language=%20French%20',
    'language=French1',
    `language=${'a'.repeat(41)}`,
    'language=Haitian%20Creole&level=B1%20Intermediate&price=30',
    'level=B1',
    'country=France',
    'country=%20south%20korea%20',
    'country=France1',
    `country=${'a'.repeat(61)}`,
    `country=${'a'.repeat(60)}`,
    'language=French&country=Canada&level=a1%20beginner&price_max=30',
    'level=c1%20advanced',
    'level=%20C1%20ADVANCED%20',
    'price=0',
    'price=-5',
    'price=10001',
    'price=abc',
    'price=27.5',
    'price=',
    'price=Infinity',
    'price=1e2',
    'price=30&price_max=25',
    'price=20&price_max=25',
    'price_min=20&price_max=30',
    'price_min=40&price_max=30',
    'price_min=40',
    'price_min=-1',
    'price=0x20',
    'price=%2030',
    'price=30.',
    'price=.5',
    `price=${'1'.repeat(200)}`,
    'language=&level=&price=',
    'q=chloe',
    'q=a%00b',
    'q=%07',
    'q=%20%20chloe%20',
    'q=%20%20',
    `q=${'b'.repeat(120)}`,
    'sort=price-asc',
    'sort=relevance',
    'q=x&sort=relevance',
    'sort=cheapest',
    'sort=PRICE-ASC',
  ];

  it.each(queries)('reads %j as the schema does', (query) => {
    const search = new URLSearchParams(query);
    expect(parseFilters(search)).toEqual(queryBySchema(search));
  });

  it('takes decimal digits only for numbers (issue 10: `0x20` was read as 32)', () => {
    expect(parseFilters(new URLSearchParams('price=0x20'))).toEqual({});
    expect(teachersQuerySchema.safeParse({ limit: '0x10' }).success).toBe(false);
    expect(teachersQuerySchema.safeParse({ limit: ' 16' }).success).toBe(false);
    expect(teachersQuerySchema.safeParse({ limit: '16', price: '27' }).data).toEqual({ limit: 16, price: 27 });
  });

  it('writes it back in a stable order, leaving out empty values and the default order', () => {
    expect(
      filtersToSearch({ price_max: 30, price_min: 20, language: 'French', level: 'B1 Intermediate', sort: 'lessons', q: 'chloe' }).toString(),
    ).toBe('q=chloe&sort=lessons&language=French&level=B1+Intermediate&price_min=20&price_max=30');
    expect(filtersToSearch({}).toString()).toBe('');
    expect(filtersToSearch({ sort: 'rating' }).toString()).toBe('');
    expect(filtersToSearch({ q: 'x', sort: 'relevance' }).toString()).toBe('q=x');
    expect(filtersToSearch({ q: 'x', sort: 'rating' }).toString()).toBe('q=x&sort=rating');
    const search = new URLSearchParams('language=Spanish&price_max=25');
    expect(filtersToSearch(parseFilters(search)).toString()).toBe(search.toString());
    expect(filtersToSearch(parseFilters(new URLSearchParams('price=25&level=a1%20beginner'))).toString()).toBe(
      'level=A1+Beginner&price_max=25',
    );
  });
});
