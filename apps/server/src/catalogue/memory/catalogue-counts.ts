import { LEVELS, type Level } from '@learnlingo/contract';

/** One teacher as the counts see it. */
export interface CountedTeacher {
  languages: readonly string[];
  levels: readonly string[];
  price: number;
}

/** Filters without a search, in the catalogue's spelling; undefined = any. */
export interface CountFilters {
  language?: string | undefined;
  level?: string | undefined;
  min: number;
  max: number;
}

const ANY = '';
const keyOf = (language: string, level: string) => `${language}\u0000${level}`;

/** Index of the first element ≥ value (or > value when `upper`) in a sorted array. */
export function bound<T extends string | number>(sorted: ArrayLike<T>, value: T, upper = false): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const x = sorted[mid] as T;
    if (x < value || (upper && x === value)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * How many teachers match a filter set without a search, answered from memory: for every
 * (language or any) × (level or any) the sorted prices of the teachers in it, so a count
 * is two binary searches whatever the catalogue's size. Built once per catalogue version
 * from one read of (languages, levels, price); ~10 numbers per teacher (8 bytes each).
 * The list's `total`, the facet counts and the known filter values all come from here,
 * so a page needs no count query. See decision 041.
 */
export class CatalogueCounts {
  private readonly prices = new Map<string, Float64Array>();
  /** languages in the catalogue, sorted for display */
  languages: string[] = [];
  /** levels present, in LEVELS order */
  levels: Level[] = [];
  /** distinct prices, ascending (computed when first asked after a change) */
  private steps: number[] | null = null;
  private readonly languageByLower = new Map<string, string>();

  constructor(teachers: Iterable<CountedTeacher>) {
    const lists = new Map<string, number[]>();
    const add = (key: string, price: number) => {
      let list = lists.get(key);
      if (!list) lists.set(key, (list = []));
      list.push(price);
    };
    for (const teacher of teachers) {
      const languages = [ANY, ...new Set(teacher.languages)];
      const levels = [ANY, ...new Set(teacher.levels)];
      for (const language of languages) for (const level of levels) add(keyOf(language, level), teacher.price);
    }
    for (const [key, list] of lists) this.prices.set(key, Float64Array.from(list).sort());
    this.derive();
  }

  /** The languages, levels and prices present, from the price lists. */
  private derive(): void {
    const languages = new Set<string>();
    const levels = new Set<string>();
    for (const key of this.prices.keys()) {
      const [language = ANY, level = ANY] = key.split('\u0000');
      if (language !== ANY && level === ANY) languages.add(language);
      if (level !== ANY && language === ANY) levels.add(level);
    }
    this.languages = [...languages].sort((a, b) => a.localeCompare(b, 'en'));
    this.languageByLower.clear();
    for (const language of this.languages) {
      const lower = language.toLowerCase();
      // two spellings of one language (e.g. "english" and "English"): the first sorted wins
      if (!this.languageByLower.has(lower)) this.languageByLower.set(lower, language);
    }
    this.levels = LEVELS.filter((level) => levels.has(level));
    this.steps = null;
  }

  /** distinct prices, ascending */
  get priceSteps(): number[] {
    this.steps ??= [...new Set(this.prices.get(keyOf(ANY, ANY)) ?? [])];
    return this.steps;
  }

  /** The keys a teacher is counted under: (language or any) × (level or any). */
  private static keysOf(teacher: CountedTeacher): string[] {
    const languages = [ANY, ...new Set(teacher.languages)];
    const levels = [ANY, ...new Set(teacher.levels)];
    return languages.flatMap((language) => levels.map((level) => keyOf(language, level)));
  }

  /**
   * One teacher changed (decision 107): counted as `before` until now (undefined: not
   * counted), as `after` from now on (undefined: no longer). Each of its ~10 keys' sorted
   * prices loses or gains one price; a key no one is under any more goes.
   */
  change(before: CountedTeacher | undefined, after: CountedTeacher | undefined): void {
    const kept = before && after ? new Set(CatalogueCounts.keysOf(after)) : new Set<string>();
    if (before && after) {
      // under the same key before and after (most edits): the price moves within its list, in place
      for (const key of CatalogueCounts.keysOf(before)) {
        const sorted = this.prices.get(key);
        if (!kept.has(key) || !sorted) continue;
        const from = bound(sorted, before.price);
        if (sorted[from] !== before.price) continue;
        const to = bound(sorted, after.price);
        if (to > from) sorted.copyWithin(from, from + 1, to);
        else sorted.copyWithin(to + 1, to, from);
        sorted[to > from ? to - 1 : to] = after.price;
        kept.delete(key);
      }
    }
    const moved = new Set(before && after ? CatalogueCounts.keysOf(after).filter((key) => !kept.has(key)) : []);
    if (before) {
      for (const key of CatalogueCounts.keysOf(before)) {
        if (moved.has(key)) continue;
        const sorted = this.prices.get(key);
        if (!sorted) continue;
        const at = bound(sorted, before.price);
        if (sorted[at] !== before.price) continue;
        if (sorted.length === 1) this.prices.delete(key);
        else {
          const kept = new Float64Array(sorted.length - 1);
          kept.set(sorted.subarray(0, at));
          kept.set(sorted.subarray(at + 1), at);
          this.prices.set(key, kept);
        }
      }
    }
    if (after) {
      for (const key of CatalogueCounts.keysOf(after)) {
        if (moved.has(key)) continue;
        const sorted = this.prices.get(key) ?? new Float64Array();
        const at = bound(sorted, after.price);
        const grown = new Float64Array(sorted.length + 1);
        grown.set(sorted.subarray(0, at));
        grown[at] = after.price;
        grown.set(sorted.subarray(at), at + 1);
        this.prices.set(key, grown);
      }
    }
    this.derive();
  }

  /** The catalogue's spelling of a language given in any case; undefined when none has it. */
  language(value: string): string | undefined {
    return this.languageByLower.get(value.toLowerCase());
  }

  count(filters: CountFilters): number {
    const sorted = this.prices.get(keyOf(filters.language ?? ANY, filters.level ?? ANY));
    if (!sorted || filters.min > filters.max) return 0;
    return bound(sorted, filters.max, true) - bound(sorted, filters.min, false);
  }

  /** For each language the count with the other filters; for each level likewise. */
  facetCounts(filters: CountFilters): { languages: Record<string, number>; levels: Record<string, number> } {
    const languages: Record<string, number> = {};
    for (const language of this.languages) languages[language] = this.count({ ...filters, language });
    const levels: Record<string, number> = {};
    for (const level of this.levels) levels[level] = this.count({ ...filters, level });
    return { languages, levels };
  }
}
