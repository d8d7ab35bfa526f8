import { describe, expect, it } from 'vitest';
import { filtersToSearch, parseFilters, type TeacherFilters } from './rules.js';
import { languageSchema, levelSchema, teacherFiltersSchema, teachersQuerySchema } from './teachers.js';

/** What the zod schemas make of a URL's filters, field by field (invalid fields dropped). */
function filtersBySchema(search: URLSearchParams): TeacherFilters {
  const out: TeacherFilters = {};
  const language = languageSchema.safeParse(search.get('language') ?? undefined);
  if (language.success) out.language = language.data;
  const level = levelSchema.safeParse(search.get('level') ?? undefined);
  if (level.success) out.level = level.data;
  const raw = search.get('price');
  if (raw !== null && raw !== '') {
    const price = teacherFiltersSchema.shape.price.safeParse(raw);
    if (price.success && price.data !== undefined) out.price = price.data;
  }
  return out;
}

describe('URL filters', () => {
  const queries = [
    '',
    'language=French',
    'language=%20French%20',
    'language=French1',
    `language=${'a'.repeat(41)}`,
    'language=Haitian%20Creole&level=B1%20Intermediate&price=30',
    'level=B1',
    'level=c1%20advanced',
    'price=0',
    'price=-5',
    'price=10001',
    'price=abc',
    'price=27.5',
    'price=',
    'price=Infinity',
    'price=1e2',
    'price=0x20',
    'price=%2030',
    'price=30.',
    'price=.5',
    `price=${'1'.repeat(200)}`,
    'language=&level=&price=',
  ];

  it.each(queries)('reads %j exactly as the schemas do', (query) => {
    const search = new URLSearchParams(query);
    expect(parseFilters(search)).toEqual(filtersBySchema(search));
  });

  it('takes decimal digits only for numbers (issue 10: `0x20` was read as 32)', () => {
    expect(parseFilters(new URLSearchParams('price=0x20'))).toEqual({});
    expect(teachersQuerySchema.safeParse({ limit: '0x10' }).success).toBe(false);
    expect(teachersQuerySchema.safeParse({ limit: ' 16' }).success).toBe(false);
    expect(teachersQuerySchema.safeParse({ limit: '16', price: '27.5' }).data).toEqual({ limit: 16, price: 27.5 });
  });

  it('writes them back in a stable order, leaving out empty values', () => {
    expect(filtersToSearch({ price: 30, language: 'French', level: 'B1 Intermediate' }).toString()).toBe(
      'language=French&level=B1+Intermediate&price=30',
    );
    expect(filtersToSearch({}).toString()).toBe('');
    const search = new URLSearchParams('language=Spanish&price=25');
    expect(filtersToSearch(parseFilters(search)).toString()).toBe(search.toString());
  });
});
