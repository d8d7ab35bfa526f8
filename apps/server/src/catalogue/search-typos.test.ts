import { teachersPageSchema } from '@learnlingo/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTerms } from './memory/search-index.js';
import { languageByOwnName } from './model/language-names.js';
import { generateTeachers } from './profiles/generator.js';
import { updateTeacher } from './sql/teacher-writes.js';
import { createTeachersRepository } from './sql/teachers-repository.js';
import { createTestApp, type TestApp } from '../test/app.js';

// Typo-tolerant search words (decision 108): a word no document has is widened to the
// catalogue's words like it; a word some document has is not.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: 40, env: { CATALOGUE_CACHE_ENTRIES: '0' } });
}, 120_000);
afterAll(() => t.close());

const generated = [...generateTeachers(1, 40)];
/** The generated teachers' document words (name, surname, languages, lesson info, conditions, experience), lower-cased. */
const wordsOf = (g: (typeof generated)[number]) =>
  [g.name, g.surname, ...g.languages, g.lesson_info, ...g.conditions, g.experience]
    .join(' ')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);
const having = (prefix: string) => generated.filter((g) => wordsOf(g).some((w) => w.startsWith(prefix))).map((g) => g.id);

async function searchIds(q: string, sort = 'relevance'): Promise<{ ids: string[]; total: number }> {
  const res = await t.app.inject({ method: 'GET', url: `/api/teachers?q=${encodeURIComponent(q)}&limit=50&sort=${sort}` });
  expect(res.statusCode, res.body).toBe(200);
  const page = teachersPageSchema.strict().parse(res.json());
  return { ids: page.items.map((item) => item.id), total: page.total };
}

describe('a search word with a typo', () => {
  it.each([
    ['Portugese', 'portuguese'],
    ['Ukranian', 'ukrainian'],
    ['Germn', 'german'],
    ['Frensh', 'french'],
    ['gramar', 'grammar'],
  ])('"%s" finds the teachers with "%s"', async (typo, word) => {
    const expected = having(word);
    expect(expected.length, word).toBeGreaterThan(0);
    const { ids, total } = await searchIds(typo);
    expect(ids).toEqual(expect.arrayContaining(expected));
    expect(total).toBe(ids.length);
    // with another word, each must match: "Portugese grammar"
    const both = await searchIds(`${typo} lessons`);
    expect(both.ids).toEqual(expect.arrayContaining(expected.filter((id) => having('lessons').includes(id))));
    const terms = (await createTeachersRepository(t.db).nameMatches({ q: typo, min: -Infinity, max: Infinity }))?.terms;
    expect(terms).toContain(`'${word}'`);
  });

  it('the same page and total in every order, whichever path answers', async () => {
    for (const sort of ['relevance', 'price-asc', 'rating']) {
      const fuzzy = await searchIds('Portugese', sort);
      const statement = await createTeachersRepository(t.db).search(
        sort as 'relevance',
        { q: 'Portugese', min: -Infinity, max: Infinity },
        null,
        50,
        null,
      );
      expect(fuzzy.total).toBe(statement.counts.total);
      expect(fuzzy.ids).toEqual((JSON.parse(statement.itemsJson) as { id: string }[]).map((i) => i.id));
    }
    // the index reads the widened words, and counts what the statements count
    const repository = createTeachersRepository(t.db);
    const index = await repository.searchIndex();
    for (const q of ['Portugese', 'Frensh gramar', 'lessons Germn']) {
      const filters = { q, min: -Infinity, max: Infinity };
      const names = await repository.nameMatches(filters);
      const terms = parseTerms(names?.terms ?? '');
      expect(terms, q).not.toBeNull();
      expect(terms?.some((term) => (term.alternatives ?? []).length > 0), q).toBe(true);
      const { q: _q, ...rest } = filters;
      const statement = await repository.search('relevance', filters, null, 50, null);
      expect(index.counts(terms ?? [], names?.names ?? [], rest, true), q).toEqual(statement.counts);
    }
    const facets = await t.app.inject({ method: 'GET', url: '/api/teachers/facets?q=Portugese' });
    expect(facets.json<{ total: number }>().total).toBe((await searchIds('Portugese')).total);
  });
});

describe('a search word some document has', () => {
  it.each(['french', 'german', 'grammar', 'fren'])('"%s" is not widened: exactly the teachers with a word starting so', async (word) => {
    const { ids, total } = await searchIds(word);
    expect(new Set(ids)).toEqual(new Set(having(word)));
    expect(total).toBe(having(word).length);
    const terms = (await createTeachersRepository(t.db).nameMatches({ q: word, min: -Infinity, max: Infinity }))?.terms;
    expect(terms).not.toContain('|');
  });
});

describe('the vocabulary (teacher_word)', () => {
  const words = async () => (await t.db.rows<{ word: string }>(sql`select word from teacher_word`)).map((r) => r.word);

  it('holds every document word of letters only, and loses a word no one uses any more', async () => {
    const all = new Set(generated.flatMap(wordsOf).filter((w) => /^\p{L}{3,}$/u.test(w)));
    expect(new Set(await words())).toEqual(all);
    const g = generated[0]!;
    await updateTeacher(t.db, g.id, { lesson_info: 'Zyzzyvaquux lessons' });
    expect(await words()).toContain('zyzzyvaquux');
    expect((await searchIds('Zyzzyvaqux')).ids).toEqual([g.id]);
    await updateTeacher(t.db, g.id, { lesson_info: g.lesson_info });
    expect(await words()).not.toContain('zyzzyvaquux');
  });
});

describe('a language by its own name, and "f" for "ph"', () => {
  it.each([
    ['Español', 'spanish'],
    ['Deutsch', 'german'],
    ['Français', 'french'],
    ['Українська', 'ukrainian'],
    ['中文', 'chinese'],
  ])('"%s" finds the teachers of %s, as the English name does', async (own, english) => {
    expect(languageByOwnName(own)).toBe(english);
    const expected = await searchIds(english);
    expect(expected.total, english).toBeGreaterThan(0);
    expect(await searchIds(own)).toEqual(expected);
  });

  it('any other word is left as it is', () => {
    for (const word of ['Sophia', 'grammar', 'españa', 'deutschland', 'toString', '__proto__']) expect(languageByOwnName(word)).toBe(word);
  });

  it('"Sofia" finds a Sophia (a word no document has, widened: ph and f sound alike)', async () => {
    const g = generated[1]!;
    expect(generated.some((other) => wordsOf(other).includes('sofia'))).toBe(false);
    await updateTeacher(t.db, g.id, { name: 'Sophia' });
    try {
      expect((await searchIds('Sofia')).ids).toContain(g.id);
      expect((await searchIds('Sofia grammar')).ids.every((id) => id === g.id)).toBe(true);
    } finally {
      await updateTeacher(t.db, g.id, { name: g.name });
    }
  });
});
