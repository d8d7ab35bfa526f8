import { describe, expect, it } from 'vitest';
import { CatalogueCounts } from './catalogue-counts.js';
import { SearchIndexBuilder, type IndexedTeacher, type NameMatch, type PageOrder, type SearchIndex, type SearchTerm } from './search-index.js';

// Decision 107: one teacher's change applied in place (SearchIndex.put, CatalogueCounts.change)
// leaves the index and the counts answering every question as an index built anew from the
// catalogue as it now is.

function indexOf(teachers: readonly IndexedTeacher[]): SearchIndex {
  const builder = new SearchIndexBuilder();
  for (const teacher of [...teachers].sort((a, b) => (a.id < b.id ? -1 : 1))) builder.add(teacher);
  return builder.build();
}

let state = 7;
const random = () => {
  state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
  return state / 2 ** 32;
};
const pick = <T,>(values: readonly T[]) => values[Math.floor(random() * values.length)] as T;
const WORDS = ['lesson', 'lessons', 'les', 'grammar', 'gram', 'exam', 'a', 'zz', 'new'];
const LANGUAGES = ['English', 'French', 'German', 'Quenya'];
const LEVELS = ['A1 Beginner', 'B1 Intermediate', 'C1 Advanced'];
const NAMES = ['ana silva', 'ana li', 'mei wang', 'lea dubois', 'zofia nowak'];

function teacher(id: string, prices: number): IndexedTeacher {
  return {
    id,
    name: pick(NAMES),
    languages: [...new Set([pick(LANGUAGES), pick(LANGUAGES)])],
    levels: [...new Set([pick(LEVELS), pick(LEVELS)])],
    country: pick(['France', 'Peru', null]),
    price: 10 + Math.floor(random() * prices),
    rating: pick([4.5, 4.75, 5]),
    lessons: Math.floor(random() * 20),
    lexemes: [...new Set(Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(WORDS)))],
  };
}

const TERMS: SearchTerm[][] = [
  [],
  [{ lexeme: 'les', prefix: true }],
  [{ lexeme: 'gram', prefix: false }],
  [{ lexeme: 'new', prefix: false }, { lexeme: 'a', prefix: false }],
  [{ lexeme: 'lesn', prefix: true, alternatives: [{ lexeme: 'gram', prefix: false }, { lexeme: 'new', prefix: true }] }],
];
const FILTERS = [
  { min: -Infinity, max: Infinity },
  { language: 'Quenya', min: -Infinity, max: Infinity },
  { level: 'C1 Advanced', min: 20, max: 40 },
  { language: 'French', level: 'A1 Beginner', min: 15, max: Infinity },
  { country: 'Peru', min: -Infinity, max: 35 },
];
const NAME_MATCHES: NameMatch[][] = [[], [{ name: 'ana li', score: 0.8 }, { name: 'zofia nowak', score: 0.7 }]];
const ORDERS: PageOrder[] = [
  { column: 'rating', direction: 'desc' },
  { column: 'price_per_hour', direction: 'asc' },
  { column: 'price_per_hour', direction: 'desc' },
  { column: 'lessons_done', direction: 'desc' },
];

/** Every answer of the index on these teachers, paged through to the end in each order. */
function answers(index: SearchIndex, teachers: readonly IndexedTeacher[]): unknown[] {
  const out: unknown[] = [];
  const counts = new CatalogueCounts(teachers);
  for (const filters of FILTERS) {
    for (const terms of TERMS) {
      for (const names of NAME_MATCHES) {
        out.push(index.counts(terms, names, filters, false), index.facets(terms, names, filters, counts));
        if (terms.length === 0 && names.length === 0) continue;
        for (const order of [...ORDERS, { column: 'score', direction: 'desc' } as PageOrder]) {
          let after = order.column === 'score' ? { value: 0, id: '' } : { value: order.direction === 'desc' ? Infinity : -Infinity, id: '' };
          for (let pages = 0; pages < 40; pages++) {
            const page = index.page(terms, names, filters, order, after, 4);
            out.push(page);
            if (!page || page.length < 4) break;
            after = page.at(-1) as { value: number; id: string };
          }
        }
        out.push(index.namePage(names, filters, null, 5));
      }
    }
    for (const order of ORDERS) {
      let after = { value: order.direction === 'desc' ? Infinity : -Infinity, id: '' };
      for (let pages = 0; pages < 60; pages++) {
        // a walk (told many match) and a pass over the set (told few) give the same page
        const walked = index.listPage(filters, order, after, 3, 10_000);
        expect(index.listPage(filters, order, after, 3, 0)).toEqual(walked);
        out.push(walked);
        if (!walked || walked.length < 3) break;
        after = walked.at(-1) as { value: number; id: string };
      }
    }
  }
  return out;
}

describe('SearchIndex.put and CatalogueCounts.change', () => {
  for (const prices of [40, 400]) {
    it(`after random edits, hides, returns and new teachers, answer as an index built anew (${prices} prices)`, () => {
      const catalogue = new Map<string, IndexedTeacher>();
      for (let i = 0; i < 80; i++) {
        const id = `t${String(i * 10).padStart(4, '0')}`;
        catalogue.set(id, teacher(id, prices));
      }
      const index = indexOf([...catalogue.values()]);
      const counts = new CatalogueCounts(catalogue.values());
      const hidden = new Map<string, IndexedTeacher>();
      for (let step = 0; step < 300; step++) {
        const roll = random();
        let id: string;
        let now: IndexedTeacher | null;
        if (roll < 0.15) {
          // a new teacher, anywhere in the order of ids (between two, first, last)
          id = `t${String(Math.floor(random() * 900)).padStart(4, '0')}${pick(['', 'a', 'b', 'zz'])}`;
          if (catalogue.has(id) || hidden.has(id)) continue;
          now = teacher(id, prices);
        } else if (roll < 0.25 && hidden.size > 0) {
          id = pick([...hidden.keys()]);
          now = hidden.get(id) as IndexedTeacher;
          hidden.delete(id);
        } else {
          id = pick([...catalogue.keys()]);
          now = roll < 0.4 ? null : teacher(id, prices);
          // half the edits keep the document (a price, lessons, levels): its lexemes in another order
          if (now !== null && roll > 0.7) now = { ...now, lexemes: [...(catalogue.get(id) as IndexedTeacher).lexemes].reverse() };
          if (now === null) hidden.set(id, catalogue.get(id) as IndexedTeacher);
        }
        const before = catalogue.get(id);
        // what the index holds of the teacher, as the counts take it, is the teacher
        const held = index.counted(id);
        expect(held && { ...held, languages: [...held.languages].sort(), levels: [...held.levels].sort() }).toEqual(
          before && {
            languages: [...new Set(before.languages)].sort(),
            levels: [...new Set(before.levels)].sort(),
            country: before.country,
            price: before.price,
          },
        );
        let rank: number | undefined;
        if (now !== null && !index.knows(id)) {
          const order = index.idsInOrder();
          const at = order.filter((entry) => entry.id < id).length;
          const lo = at > 0 ? (order[at - 1] as { rank: number }).rank : -1;
          const hi = at < order.length ? (order[at] as { rank: number }).rank : lo + 2;
          rank = (lo + hi) / 2;
        }
        expect(index.put(id, now, rank)).toBe(true);
        counts.change(before, now ?? undefined);
        if (now === null) catalogue.delete(id);
        else catalogue.set(id, now);
      }
      const teachers = [...catalogue.values()];
      const fresh = indexOf(teachers);
      expect(index.size).toBe(teachers.length);
      expect(answers(index, teachers)).toEqual(answers(fresh, teachers));
      const anew = new CatalogueCounts(teachers);
      expect({ values: counts.values, prices: counts.priceSteps }).toEqual({ values: anew.values, prices: anew.priceSteps });
      for (const filters of FILTERS) expect(counts.facetCounts(filters)).toEqual(anew.facetCounts(filters));
      // the counts the index gives the live catalogue (LiveCatalogue) are the same
      const fromIndex = new CatalogueCounts(index.countedTeachers());
      for (const filters of FILTERS) expect(fromIndex.facetCounts(filters)).toEqual(anew.facetCounts(filters));
    });
  }

  it('an edit that keeps the document adds nothing to the changed documents, and a search answers as before', () => {
    const teachers = Array.from({ length: 40 }, (_, i) => teacher(`k${String(i).padStart(3, '0')}`, 40));
    const index = indexOf(teachers);
    const terms = [{ lexeme: 'les', prefix: true }];
    const filters = { min: -Infinity, max: Infinity };
    const before = index.counts(terms, [], filters, false);
    for (const t of teachers) expect(index.put(t.id, { ...t, price: t.price + 1, lessons: t.lessons + 5, lexemes: [...t.lexemes].reverse() })).toBe(true);
    expect(index.drift().changedDocuments).toBe(0);
    expect(index.counts(terms, [], filters, false)).toEqual(before);
    const first = teachers[0] as IndexedTeacher;
    // one lexeme more, or one fewer: a changed document
    expect(index.put(first.id, { ...first, lexemes: [...first.lexemes, 'zzz'] })).toBe(true);
    expect(index.put(teachers[1]?.id as string, { ...(teachers[1] as IndexedTeacher), lexemes: (teachers[1] as IndexedTeacher).lexemes.slice(1) })).toBe(true);
    expect(index.drift().changedDocuments).toBe(2);
    // and back to what it was: kept in the overlay as it now is
    expect(index.put(first.id, first)).toBe(true);
    expect(index.drift().changedDocuments).toBe(2);
    expect(index.counts([{ lexeme: 'zzz', prefix: false }], [], filters, false).total).toBe(0);
  });

  it('has room for a few new teachers, then asks for a rebuild (put is false)', () => {
    const index = indexOf([teacher('m', 40)]);
    let added = 0;
    while (index.put(`n${String(added).padStart(4, '0')}`, teacher(`n${added}`, 40), 1 + added)) added += 1;
    expect(added).toBe(256);
    expect(index.size).toBe(257);
  });
});
