import { LEVELS } from '@learnlingo/contract';
import {
  facetOf,
  spelledByCatalogue,
  TAG_FILTERS,
  valuesOf,
  type CountFilters,
  type TagFacet,
  type TagFilter,
  type TagRow,
} from '../model/registry.js';

export type { CountFilters } from '../model/registry.js';

/** One teacher as the counts see it: its tag columns (registry.ts) and its price. */
export interface CountedTeacher extends TagRow {
  price: number;
}

const ANY = '';
/** The key of one (value or any) per tag filter, in TAG_FILTERS' order. */
const keyOf = (filters: CountFilters) => TAG_FILTERS.map((filter) => filters[filter] ?? ANY).join('\u0000');

/** Every key a teacher counts under: each tag filter's values and "any", crossed. */
function keysOf(teacher: CountedTeacher): string[] {
  let keys = [''];
  TAG_FILTERS.forEach((filter, i) => {
    const values = [ANY, ...new Set(valuesOf(teacher, filter))];
    keys = keys.flatMap((key) => values.map((value) => (i === 0 ? value : `${key}\u0000${value}`)));
  });
  return keys;
}

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
 * combination of (value or any) of each tag filter (registry.ts: language × level ×
 * country) the sorted prices of the teachers in it, so a count is two binary searches
 * whatever the catalogue's size. Built once per catalogue version from one read of the tag
 * columns and the price; ~24 numbers per generated teacher (8 bytes each). The list's
 * `total`, the facet counts and the known filter values all come from here, so a page
 * needs no count query. See decisions 041 and 106.
 */
export class CatalogueCounts {
  private readonly prices = new Map<string, Float64Array>();
  /** each tag filter's values present, sorted for display (levels in LEVELS' order) */
  readonly values: Readonly<Record<TagFilter, string[]>>;
  /** distinct prices, ascending */
  readonly priceSteps: number[];
  /** the catalogue's spelling of each value by its lower case, per tag filter */
  private readonly byLower = new Map<TagFilter, Map<string, string>>();

  constructor(teachers: Iterable<CountedTeacher>) {
    const lists = new Map<string, number[]>();
    for (const teacher of teachers) {
      for (const key of keysOf(teacher)) {
        let list = lists.get(key);
        if (!list) lists.set(key, (list = []));
        list.push(teacher.price);
      }
    }
    for (const [key, list] of lists) this.prices.set(key, Float64Array.from(list).sort());
    const present = new Map<TagFilter, Set<string>>(TAG_FILTERS.map((filter) => [filter, new Set()]));
    for (const key of lists.keys()) {
      const parts = key.split('\u0000');
      const set = parts.flatMap((part, i) => (part === ANY ? [] : [i]));
      // a key with exactly one value set: that value is present
      if (set.length === 1) present.get(TAG_FILTERS[set[0] as number] as TagFilter)?.add(parts[set[0] as number] as string);
    }
    this.values = Object.fromEntries(
      TAG_FILTERS.map((filter) => {
        const found = present.get(filter) as Set<string>;
        return [
          filter,
          filter === 'level' ? LEVELS.filter((level) => found.has(level)) : [...found].sort((a, b) => a.localeCompare(b, 'en')),
        ];
      }),
    ) as Record<TagFilter, string[]>;
    for (const filter of TAG_FILTERS) {
      if (!spelledByCatalogue(filter)) continue;
      const lower = new Map<string, string>();
      // two spellings of one value (e.g. "english" and "English"): the first sorted wins
      for (const value of this.values[filter]) if (!lower.has(value.toLowerCase())) lower.set(value.toLowerCase(), value);
      this.byLower.set(filter, lower);
    }
    this.priceSteps = [...new Set(this.prices.get(keyOf({ min: 0, max: 0 })) ?? [])];
  }

  /** languages in the catalogue, sorted for display */
  get languages(): string[] {
    return this.values.language;
  }

  /** levels present, in LEVELS order */
  get levels(): string[] {
    return this.values.level;
  }

  /**
   * The catalogue's spelling of a tag filter's value given in any case; undefined when no
   * teacher has it. A fixed list's value (a level) is taken as it is.
   */
  spelling(filter: TagFilter, value: string): string | undefined {
    const lower = this.byLower.get(filter);
    return lower ? lower.get(value.toLowerCase()) : value;
  }

  /** The catalogue's spelling of a language given in any case; undefined when none has it. */
  language(value: string): string | undefined {
    return this.spelling('language', value);
  }

  count(filters: CountFilters): number {
    const sorted = this.prices.get(keyOf(filters));
    if (!sorted || filters.min > filters.max) return 0;
    return bound(sorted, filters.max, true) - bound(sorted, filters.min, false);
  }

  /** For each tag filter's facet (languages, levels, countries), each value's count with the other filters. */
  facetCounts(filters: CountFilters): Record<TagFacet, Record<string, number>> {
    return Object.fromEntries(
      TAG_FILTERS.map((filter) => [
        facetOf(filter),
        Object.fromEntries(this.values[filter].map((value) => [value, this.count({ ...filters, [filter]: value })])),
      ]),
    ) as Record<TagFacet, Record<string, number>>;
  }
}
