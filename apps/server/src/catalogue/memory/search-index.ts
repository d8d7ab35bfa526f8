import { bound as lowerBound, type CountedTeacher, type CountFilters } from './catalogue-counts.js';
import { facetOf, TAG_COLUMNS, TAG_FILTERS, valuesOf, type TagFacet, type TagFilter, type TagRow } from '../model/registry.js';
import type { CursorPosition } from '../model/cursor.js';
import type { SortOrder } from '../model/sort-orders.js';

/**
 * A word of a search as PostgreSQL normalised it: a lexeme, matched whole or as a prefix
 * (`:*`), or any of its alternatives — a word no document has, widened to the
 * catalogue's words like it (decision 108).
 */
export interface SearchTerm {
  lexeme: string;
  prefix: boolean;
  alternatives?: readonly { lexeme: string; prefix: boolean }[];
}

/** A quoted lexeme with its optional `:*` at `i`, and where it ends; null when there is none. */
function readLexeme(text: string, from: number): { lexeme: string; prefix: boolean; next: number } | null {
  let i = from;
  if (text[i] !== "'") return null;
  i += 1;
  let lexeme = '';
  for (;;) {
    const quote = text.indexOf("'", i);
    if (quote < 0) return null;
    lexeme += text.slice(i, quote);
    i = quote + 1;
    if (text[i] !== "'") break;
    lexeme += "'"; // a quote inside a lexeme is doubled
    i += 1;
  }
  if (lexeme.includes('\\')) return null;
  const prefix = text.startsWith(':*', i);
  if (prefix) i += 2;
  return { lexeme, prefix, next: i };
}

/**
 * The terms of a tsquery from PostgreSQL's text of it, when it is what the search builds
 * (`'a':* & ( 'b':* | 'c' | 'd' )`: quoted lexemes, optional `:*`, joined by ` & `, a
 * widened word's alternatives in parentheses joined by ` | `, or without them when the word
 * is the only one); null for anything else (a phrase, another OR, a weight, a backslash),
 * which the caller leaves to the statements. '' (no lexeme at all) is no term: it matches
 * no document. Linear: one pass.
 */
export function parseTerms(text: string): SearchTerm[] | null {
  const terms: SearchTerm[] = [];
  if (text === '') return terms;
  let i = 0;
  for (;;) {
    const grouped = text.startsWith('( ', i);
    if (grouped) i += 2;
    const alternatives: { lexeme: string; prefix: boolean }[] = [];
    for (;;) {
      const read = readLexeme(text, i);
      if (read === null) return null;
      alternatives.push({ lexeme: read.lexeme, prefix: read.prefix });
      i = read.next;
      if (!text.startsWith(' | ', i)) break;
      i += 3;
    }
    if (grouped) {
      if (alternatives.length < 2 || !text.startsWith(' )', i)) return null;
      i += 2;
    } else if (alternatives.length > 1 && (terms.length > 0 || i !== text.length)) {
      return null; // an OR without parentheses is the whole query, or not ours
    }
    const [first, ...others] = alternatives as [{ lexeme: string; prefix: boolean }, ...{ lexeme: string; prefix: boolean }[]];
    terms.push(others.length > 0 ? { ...first, alternatives: others } : first);
    if (i === text.length) return terms;
    if (!text.startsWith(' & ', i)) return null;
    i += 3;
  }
}

/** One teacher as the index reads it from teacher_search: its tag columns (TagRow), order columns, lexemes. */
export interface IndexedTeacher extends TagRow {
  id: string;
  /** the name as searched (teacher_search.name_text) */
  name: string;
  price: number;
  rating: number;
  lessons: number;
  /** the document's lexemes (tsvector_to_array) */
  lexemes: readonly string[];
}

/** A distinct name like a search's text (teacher_name), with its relevance (word similarity). */
export interface NameMatch {
  name: string;
  score: number;
}

/** An order as SearchIndex.page reads it. */
export type PageOrder = Pick<SortOrder, 'column' | 'direction'>;

/** The columns of the orders by value (all but relevance). */
type ValueColumn = Exclude<SortOrder['column'], 'score'>;

/** A page to read in an order by value: the first `rows` of `matches` after (after.value, cut). */
interface ValueRead {
  matches: Bits;
  column: ValueColumn;
  direction: PageOrder['direction'];
  after: CursorPosition;
  /** the cursor's teacher's ordinal (-1: before every id) */
  cut: number;
  rows: number;
  /** the values of the order's column outside which nothing matches (a price order's price range) */
  range: { min: number; max: number };
}

const VALUE_COLUMNS: readonly ValueColumn[] = ['rating', 'price_per_hour', 'lessons_done'];

/** No bound on the order's column. */
const ANY_VALUE = { min: Number.NEGATIVE_INFINITY, max: Number.POSITIVE_INFINITY };

/**
 * A page in an order by value walks the order (valuePage) when at least this many teachers
 * match per row asked: the walk then reads ~n / (this × rows) … n / 16 entries for the
 * page, on average, about what one pass over the matches' set costs instead (n / 32 words,
 * twice with the set's making, and each match).
 */
const WALK_MATCHES_PER_ROW = 16;

/**
 * A walk gives up after this many entries (then one pass over the matches' set finds the
 * page): matches far from the cursor (they cluster in the order) never cost a read of the
 * whole catalogue per page.
 */
const walkSteps = (size: number) => Math.max(1024, size >>> 4);

/** Whether a page of `rows` among `count` matches walks the order (WALK_MATCHES_PER_ROW). */
const walks = (count: number, rows: number) => count >= WALK_MATCHES_PER_ROW * rows;

/** A set of teachers by ordinal, 32 to a word. */
type Bits = Uint32Array;

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

const has = (bits: Bits, ordinal: number) => ((bits[ordinal >>> 5] as number) & (1 << (ordinal & 31))) !== 0;
const add = (bits: Bits, ordinal: number) => {
  bits[ordinal >>> 5] = (bits[ordinal >>> 5] as number) | (1 << (ordinal & 31));
};

/** How many searches' document matches SearchIndex keeps (12.5 KB each on 100,000 teachers). */
const RECENT_MATCHES = 16;

/** Up to this many distinct prices, a price range is read from a set per price (SearchIndex.atMost). */
const MAX_PRICE_STEPS = 256;

/** How many teachers are in every one of these sets. */
function countAll(sets: readonly Bits[]): number {
  const [first, ...rest] = sets;
  if (!first) return 0;
  let n = 0;
  for (let w = 0; w < first.length; w++) {
    let word = first[w] as number;
    for (const set of rest) word &= set[w] as number;
    if (word !== 0) n += popcount(word);
  }
  return n;
}

/** `into` with only the teachers that are also in every one of these sets (in place); returns it. */
function keepIn(into: Bits, sets: readonly Bits[]): Bits {
  for (let w = 0; w < into.length; w++) {
    let word = into[w] as number;
    for (const set of sets) word &= set[w] as number;
    into[w] = word;
  }
  return into;
}

/** Lists of ordinals by key, as a SearchIndexBuilder collects them. */
type Lists = Map<string, number[]>;

function push(lists: Lists, keys: readonly string[], ordinal: number): void {
  for (const key of keys) {
    let list = lists.get(key);
    if (!list) lists.set(key, (list = []));
    list.push(ordinal);
  }
}

/**
 * Collects teachers as they are read (a slice at a time, so no slice's rows outlive it),
 * then builds the SearchIndex.
 */
export class SearchIndexBuilder {
  readonly ids: string[] = [];
  readonly prices: number[] = [];
  readonly ratings: number[] = [];
  readonly lessons: number[] = [];
  readonly names: Lists = new Map();
  readonly lexemes: Lists = new Map();
  /** each tag filter's teachers by value (registry.ts) */
  readonly tags = Object.fromEntries(TAG_FILTERS.map((filter) => [filter, new Map()])) as Record<TagFilter, Lists>;

  add(teacher: IndexedTeacher): void {
    const ordinal = this.ids.length;
    this.ids.push(teacher.id);
    this.prices.push(teacher.price);
    this.ratings.push(teacher.rating);
    this.lessons.push(teacher.lessons);
    push(this.names, [teacher.name], ordinal);
    push(this.lexemes, teacher.lexemes, ordinal);
    for (const filter of TAG_FILTERS) push(this.tags[filter], valuesOf(teacher, filter), ordinal);
  }

  build(): SearchIndex {
    return new SearchIndex(this);
  }
}

/**
 * The search's counts from memory (decision 094): which teachers' documents match a
 * search's words, as PostgreSQL's full-text match (`document @@ query`) decides it — the
 * same lexemes (read from teacher_search's tsvectors), the same prefix rule, every word
 * required — so a search's `total` and facet counts need no count of its matches in the
 * database, where a common word cost ~1 µs per match (decision 042). The trigram name
 * matches (`schmit` finds Schmidt) still come from PostgreSQL, by id; this index tells
 * which of them the documents already found.
 *
 * An inverted index: the distinct lexemes sorted (a prefix is a contiguous range), each
 * with its teachers — a bit set when 1 teacher in 32 has it, else their ordinals; plus a
 * bit set per value of each tag filter (registry.ts: language, level, country), and per
 * distinct price (up to 256) the teachers at or below it, for the filters. Built once per
 * catalogue version; 4 bytes per (teacher, rare lexeme) pair and n / 8 bytes per common
 * lexeme, tag value and price.
 */
export class SearchIndex {
  /** how many teachers (live: not removed since the build) */
  size: number;
  /** ordinals given out: the build's teachers, then those added since (put) */
  private slots: number;
  /** ordinals the bit sets and arrays have room for: past it, put asks for a rebuild */
  private readonly capacity: number;
  /** the build's teachers: their ordinals are their places in PostgreSQL's order of the ids */
  private readonly built: number;
  /** ids by ordinal: the build's in PostgreSQL's order of them (the index reads them ordered by id), then those added */
  private readonly ids: string[];
  private readonly ordinals = new Map<string, number>();
  /**
   * Each ordinal's place in PostgreSQL's order of the ids: the ordinal itself for the build's
   * teachers, a fraction between its neighbours' for one added since (decision 107). Every
   * tie-break by id compares ranks.
   */
  private readonly rank: Float64Array;
  /** each teacher's name (teacher_search.name_text) by ordinal */
  private readonly nameOf: string[];
  /** each order's column by ordinal (teacher_search's, as the statements read it) */
  private readonly values: Record<ValueColumn, Float64Array>;
  /**
   * Each value column's live ordinals by (value, rank) ascending (the first `size` entries):
   * a page without a search walks one (listPage), forwards for an ascending order and
   * backwards for a descending one; a price range is a slice of price_per_hour's.
   */
  private readonly sorted: Record<ValueColumn, Int32Array>;
  /** the document matches of the last few searches' terms (documentMatches) */
  private readonly recentMatches = new Map<string, Bits>();
  /** the teachers carrying each name (teacher_search.name_text), ordinals ascending */
  private readonly names = new Map<string, Int32Array>();
  /** the distinct prices, ascending (after changes, maybe some no one has: harmless, see put) */
  private readonly priceSteps: number[];
  /**
   * For each distinct price, the teachers at or below it — a price range is then two sets
   * and one pass over the words, not a loop over its teachers; null past MAX_PRICE_STEPS
   * prices (then the slice of the price order).
   */
  private atMost: Bits[] | null;
  /** a set per value of each tag filter */
  private readonly tags: Record<TagFilter, Map<string, Bits>>;
  /** the live teachers */
  private readonly everyone: Bits;
  private readonly nothing: Bits;
  /**
   * The documents changed since the build (decision 107): an ordinal here matches a term by
   * these lexemes, whatever the build's postings say (none: removed). A rebuild empties it.
   */
  private readonly changedDocuments = new Map<number, readonly string[]>();
  /** how many lexemes each of the build's documents has (sameDocument) */
  private readonly lexemeCount: Int32Array;
  /** distinct lexemes, sorted by code unit */
  private readonly lexemes: string[];
  /**
   * The teachers of lexeme i: a bit set when at least 1 teacher in 32 has it (no larger
   * than its ordinals would be, and OR-ed 32 teachers at a time), else its ordinals,
   * postings[starts[i] … starts[i + 1]).
   */
  private readonly dense: (Bits | null)[];
  private readonly starts: Int32Array;
  private readonly postings: Int32Array;

  constructor(from: SearchIndexBuilder) {
    const n = from.ids.length;
    this.size = n;
    this.slots = n;
    this.built = n;
    // room for teachers added since the build (put); a rebuild past it
    this.capacity = n + Math.max(256, n >>> 5);
    const capacity = this.capacity;
    const words = (capacity + 31) >>> 5;
    const bits = () => new Uint32Array(words);
    const setOf = (list: readonly number[]) => {
      const set = bits();
      for (const o of list) add(set, o);
      return set;
    };
    this.nothing = bits();
    this.everyone = bits();
    for (let o = 0; o < n; o++) add(this.everyone, o);
    this.ids = from.ids;
    this.rank = new Float64Array(capacity);
    for (let o = 0; o < n; o++) this.rank[o] = o;
    this.nameOf = new Array<string>(n);
    const column = (list: number[]) => {
      const values = new Float64Array(capacity);
      values.set(list);
      return values;
    };
    this.values = {
      rating: column(from.ratings),
      price_per_hour: column(from.prices),
      lessons_done: column(from.lessons),
    };
    const byValue = (values: Float64Array) => {
      const sorted = new Int32Array(capacity);
      sorted.set(Int32Array.from({ length: n }, (_, o) => o).sort((a, b) => (values[a] as number) - (values[b] as number) || a - b));
      return sorted;
    };
    this.sorted = {
      rating: byValue(this.values.rating),
      price_per_hour: byValue(this.values.price_per_hour),
      lessons_done: byValue(this.values.lessons_done),
    };
    from.ids.forEach((id, o) => this.ordinals.set(id, o));
    for (const [name, list] of from.names) {
      this.names.set(name, Int32Array.from(list));
      for (const o of list) this.nameOf[o] = name;
    }
    this.tags = Object.fromEntries(
      TAG_FILTERS.map((filter) => [filter, new Map([...from.tags[filter]].map(([value, list]) => [value, setOf(list)]))]),
    ) as Record<TagFilter, Map<string, Bits>>;

    const byPrice = this.sorted.price_per_hour;
    const prices = this.values.price_per_hour;
    this.priceSteps = [...new Set(Array.from(byPrice.subarray(0, n), (o) => prices[o] as number))];
    if (this.priceSteps.length <= MAX_PRICE_STEPS) {
      const atMost: Bits[] = [];
      let set = bits();
      for (let i = 0; i < n; i++) {
        add(set, byPrice[i] as number);
        if (i === n - 1 || prices[byPrice[i + 1] as number] !== prices[byPrice[i] as number]) {
          atMost.push(set);
          set = set.slice();
        }
      }
      this.atMost = atMost;
    } else this.atMost = null;

    const lists = from.lexemes;
    this.lexemes = [...lists.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const isDense = (list: number[]) => list.length * 32 >= n;
    this.dense = this.lexemes.map((lexeme) => {
      const list = lists.get(lexeme) as number[];
      return isDense(list) ? setOf(list) : null;
    });
    this.starts = new Int32Array(this.lexemes.length + 1);
    let total = 0;
    this.lexemes.forEach((lexeme, i) => {
      this.starts[i] = total;
      const list = lists.get(lexeme) as number[];
      if (!isDense(list)) total += list.length;
    });
    this.starts[this.lexemes.length] = total;
    this.postings = new Int32Array(total);
    this.lexemeCount = new Int32Array(n);
    for (const list of lists.values()) for (const o of list) this.lexemeCount[o] = (this.lexemeCount[o] as number) + 1;
    this.lexemes.forEach((lexeme, i) => {
      const list = lists.get(lexeme) as number[];
      if (!isDense(list)) this.postings.set(list, this.starts[i] as number);
    });
  }

  /** Whether this id has an ordinal here (live, or removed since the build): put needs no rank for it. */
  knows(id: string): boolean {
    return this.ordinals.has(id);
  }

  /**
   * The ids known here (live, or removed since: they keep their ranks) in rank order —
   * PostgreSQL's order of the ids: where a new one goes is asked of it.
   */
  idsInOrder(): { id: string; rank: number }[] {
    const known: { id: string; rank: number }[] = [];
    for (let o = 0; o < this.slots; o++) known.push({ id: this.ids[o] as string, rank: this.rank[o] as number });
    if (this.slots > this.built) known.sort((a, b) => a.rank - b.rank);
    return known;
  }

  /** One teacher as the counts see it, from this index; undefined when it is not in it. */
  counted(id: string): CountedTeacher | undefined {
    const o = this.ordinals.get(id);
    if (o === undefined || !has(this.everyone, o)) return undefined;
    return this.countedAt(o, TAG_FILTERS.map((filter) => [...this.tags[filter]]));
  }

  /** Ordinal o as the counts see it, from each tag filter's sets (given as entries). */
  private countedAt(o: number, tags: [string, Bits][][]): CountedTeacher {
    const row: Record<string, unknown> = { price: this.values.price_per_hour[o] as number };
    TAG_FILTERS.forEach((filter, i) => {
      const values = (tags[i] as [string, Bits][]).flatMap(([value, set]) => (has(set, o) ? [value] : []));
      const { column, array } = TAG_COLUMNS[filter];
      row[column] = array ? values : (values[0] ?? null);
    });
    return row as unknown as CountedTeacher;
  }

  /** Every live teacher as the counts see it (CatalogueCounts built from this index). */
  *countedTeachers(): Generator<CountedTeacher> {
    const tags = TAG_FILTERS.map((filter) => [...this.tags[filter]]);
    for (let o = 0; o < this.slots; o++) if (has(this.everyone, o)) yield this.countedAt(o, tags);
  }

  /**
   * How far this index has drifted from one built anew: the documents changed since the
   * build (each search term checks them one by one) and the room left for new teachers.
   */
  drift(): { changedDocuments: number; roomLeft: number } {
    return { changedDocuments: this.changedDocuments.size, roomLeft: this.capacity - this.slots };
  }

  /**
   * Puts one teacher as it is now (decision 107): `teacher` replaces what the index holds for
   * its id, or adds it, or (null: hidden, or gone) removes it — every set, order, name and
   * document it is in, nothing else. A new id needs `rank`, its place among idsInOrder's
   * (strictly between its neighbours'). False when there is no room left for a new one: the
   * caller then builds the index anew.
   */
  put(id: string, teacher: IndexedTeacher | null, rank?: number): boolean {
    let o = this.ordinals.get(id);
    if (o === undefined) {
      if (teacher === null) return true;
      if (this.slots >= this.capacity || rank === undefined) return false;
      o = this.slots++;
      this.ids.push(id);
      this.ordinals.set(id, o);
      this.rank[o] = rank;
    }
    // an edit that leaves the document as it is (a price, the lessons, a level, ...) changes
    // no term's matches: the recent ones stay, and the document joins no overlay (which each
    // search term reads, and whose size brings the next rebuild)
    const live = has(this.everyone, o);
    const sameDocument = live && teacher !== null && this.sameDocument(o, teacher.lexemes);
    if (!sameDocument) this.recentMatches.clear();
    if (live) this.remove(o, sameDocument);
    if (teacher !== null) this.insert(o, teacher, sameDocument);
    return true;
  }

  /** Whether ordinal o's document, as this index matches it, has exactly these lexemes. */
  private sameDocument(o: number, lexemes: readonly string[]): boolean {
    const now = new Set(lexemes);
    const changed = this.changedDocuments.get(o);
    if (changed !== undefined) {
      const held = new Set(changed);
      return held.size === now.size && [...held].every((lexeme) => now.has(lexeme));
    }
    if (o >= this.built || this.lexemeCount[o] !== now.size) return false;
    // the build's: o is in each lexeme's teachers (its set, or its ordinals, ascending)
    for (const lexeme of now) {
      const i = lowerBound(this.lexemes, lexeme);
      if (this.lexemes[i] !== lexeme) return false;
      const dense = this.dense[i];
      if (dense) {
        if (!has(dense, o)) return false;
        continue;
      }
      const postings = this.postings.subarray(this.starts[i] as number, this.starts[i + 1] as number);
      if (postings[lowerBound(postings, o)] !== o) return false;
    }
    return true;
  }

  /** Takes ordinal o out of every set, order and name (its document: no lexeme). */
  private remove(o: number, keepDocument = false): void {
    const clear = (set: Bits) => {
      set[o >>> 5] = (set[o >>> 5] as number) & ~(1 << (o & 31));
    };
    clear(this.everyone);
    for (const filter of TAG_FILTERS) for (const set of this.tags[filter].values()) clear(set);
    if (this.atMost) for (const set of this.atMost) clear(set);
    for (const column of VALUE_COLUMNS) {
      const sorted = this.sorted[column];
      const at = this.placeIn(column, o);
      if (sorted[at] === o) sorted.copyWithin(at, at + 1, this.size);
    }
    this.size -= 1;
    const name = this.nameOf[o];
    if (name !== undefined) {
      const list = (this.names.get(name) ?? new Int32Array()).filter((x) => x !== o);
      if (list.length > 0) this.names.set(name, list);
      else this.names.delete(name);
    }
    if (!keepDocument) this.changedDocuments.set(o, []);
  }

  /** Puts ordinal o (taken out, or new) in the sets, orders and name of `teacher`. */
  private insert(o: number, teacher: IndexedTeacher, keepDocument = false): void {
    const words = this.everyone.length;
    add(this.everyone, o);
    const addTo = (sets: Map<string, Bits>, keys: readonly string[]) => {
      for (const key of new Set(keys)) {
        let set = sets.get(key);
        if (!set) sets.set(key, (set = new Uint32Array(words)));
        add(set, o);
      }
    };
    for (const filter of TAG_FILTERS) addTo(this.tags[filter], valuesOf(teacher, filter));
    this.values.rating[o] = teacher.rating;
    this.values.price_per_hour[o] = teacher.price;
    this.values.lessons_done[o] = teacher.lessons;
    for (const column of VALUE_COLUMNS) {
      const sorted = this.sorted[column];
      const at = this.placeIn(column, o);
      sorted.copyWithin(at + 1, at, this.size);
      sorted[at] = o;
    }
    this.size += 1;
    this.insertPrice(o, teacher.price);
    this.nameOf[o] = teacher.name;
    const list = this.names.get(teacher.name);
    this.names.set(teacher.name, list ? Int32Array.from([...list, o]).sort() : Int32Array.of(o));
    if (!keepDocument) this.changedDocuments.set(o, teacher.lexemes);
  }

  /** Where ordinal o is, or goes, in a value column's order: (its value, its rank) among the live. */
  private placeIn(column: ValueColumn, o: number): number {
    const sorted = this.sorted[column];
    const values = this.values[column];
    const v = values[o] as number;
    const r = this.rank[o] as number;
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const x = sorted[mid] as number;
      const vx = values[x] as number;
      if (vx < v || (vx === v && (this.rank[x] as number) < r)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Ordinal o in the price sets of the prices at or above `price` (a new price gets its set). */
  private insertPrice(o: number, price: number): void {
    let at = lowerBound(this.priceSteps, price);
    if (this.priceSteps[at] !== price) {
      this.priceSteps.splice(at, 0, price);
      if (this.atMost) {
        if (this.priceSteps.length > MAX_PRICE_STEPS) this.atMost = null;
        // those at or below the price just under it, and no one yet at this one
        else this.atMost.splice(at, 0, at > 0 ? (this.atMost[at - 1] as Bits).slice() : new Uint32Array(this.everyone.length));
      }
    }
    if (this.atMost) for (; at < this.atMost.length; at++) add(this.atMost[at] as Bits, o);
  }

  /**
   * The teachers whose document has every term (none for no term, as `@@` with an empty
   * query). The set may be the index's own or a recent one's: never to be changed. The
   * last few are kept (a search's counts and its page ask for the same terms one after
   * the other).
   */
  private documentMatches(terms: readonly SearchTerm[]): Bits {
    const key = JSON.stringify(terms);
    const recent = this.recentMatches.get(key);
    if (recent) return recent;
    const found = this.matchTerms(terms);
    if (this.recentMatches.size >= RECENT_MATCHES) this.recentMatches.delete(this.recentMatches.keys().next().value as string);
    this.recentMatches.set(key, found);
    return found;
  }

  private matchTerms(terms: readonly SearchTerm[]): Bits {
    let result: Bits | null = null;
    for (const term of terms) {
      const found = new Uint32Array(this.everyone.length);
      // the term or any of its alternatives (decision 108)
      const alternatives = [term, ...(term.alternatives ?? [])];
      const matchesOne = (lexeme: string) =>
        alternatives.some((one) => (one.prefix ? lexeme.startsWith(one.lexeme) : lexeme === one.lexeme));
      for (const one of alternatives) {
        for (let i = lowerBound(this.lexemes, one.lexeme); i < this.lexemes.length; i++) {
          const lexeme = this.lexemes[i] as string;
          if (one.prefix ? !lexeme.startsWith(one.lexeme) : lexeme !== one.lexeme) break;
          const dense = this.dense[i];
          if (dense) for (let w = 0; w < found.length; w++) found[w] = (found[w] as number) | (dense[w] as number);
          const end = this.starts[i + 1] as number;
          for (let p = this.starts[i] as number; p < end; p++) add(found, this.postings[p] as number);
        }
      }
      // the documents changed since the build match by their lexemes now
      for (const [o, lexemes] of this.changedDocuments) {
        const matches = lexemes.some(matchesOne);
        if (matches) add(found, o);
        else found[o >>> 5] = (found[o >>> 5] as number) & ~(1 << (o & 31));
      }
      if (!result) result = found;
      else for (let w = 0; w < result.length; w++) result[w] = (result[w] as number) & (found[w] as number);
    }
    return result ?? this.nothing;
  }

  private priceRange(min: number, max: number): Bits {
    if (min === Number.NEGATIVE_INFINITY && max === Number.POSITIVE_INFINITY) return this.everyone;
    if (this.atMost) {
      const top = this.atMost[lowerBound(this.priceSteps, max, true) - 1]; // the last price ≤ max
      const below = this.atMost[lowerBound(this.priceSteps, min) - 1]; // the last price < min
      if (!top) return this.nothing;
      if (!below) return top;
      const set = new Uint32Array(this.everyone.length);
      for (let w = 0; w < set.length; w++) set[w] = (top[w] as number) & ~(below[w] as number);
      return set;
    }
    const set = new Uint32Array(this.everyone.length);
    const byPrice = this.sorted.price_per_hour;
    const prices = this.values.price_per_hour;
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((prices[byPrice[mid] as number] as number) < min) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.size && (prices[byPrice[i] as number] as number) <= max; i++) add(set, byPrice[i] as number);
    return set;
  }

  /** A tag filter's set: everyone when it is not set, the teachers with its value else. */
  private tag(filter: TagFilter, value: string | undefined): Bits {
    return value === undefined ? this.everyone : (this.tags[filter].get(value) ?? this.nothing);
  }

  /** The tag filters' sets, in TAG_FILTERS' order. */
  private tagSets(filters: CountFilters): Bits[] {
    return TAG_FILTERS.map((filter) => this.tag(filter, filters[filter]));
  }

  /** The filters' sets: each tag filter's, then the price range. */
  private filterSets(filters: CountFilters): Bits[] {
    return [...this.tagSets(filters), this.priceRange(filters.min, filters.max)];
  }

  /** A search's matches, as a new set: its words' document matches and its name matches. */
  private searchMatches(terms: readonly SearchTerm[], names: readonly NameMatch[]): Bits {
    const matches = this.documentMatches(terms).slice();
    const named = this.nameSet(names);
    for (let w = 0; w < matches.length; w++) matches[w] = (matches[w] as number) | (named[w] as number);
    return matches;
  }

  /**
   * A cursor's teacher's rank (its place in the order of the ids): -1 for '' (before every
   * id), undefined when not in this index.
   */
  private rankOf(id: string): number | undefined {
    if (id === '') return -1;
    const o = this.ordinals.get(id);
    return o === undefined || !has(this.everyone, o) ? undefined : (this.rank[o] as number);
  }

  /** The first `rows` teachers of a set ranked below `end`, id high to low, at this value. */
  private fromTop(set: Bits, end: number, rows: number, value: number, into: CursorPosition[]): void {
    const found: number[] = [];
    // the build's teachers, whose ordinals are their ranks: from the top of the set down
    const stop = Math.min(this.built, Math.ceil(end));
    for (let w = (stop - 1) >> 5, left = rows; w >= 0 && left > 0; w--) {
      let word = set[w] as number;
      if (w === (stop - 1) >> 5 && (stop & 31) !== 0) word &= (1 << (stop & 31)) - 1;
      while (word !== 0 && left > 0) {
        const bit = 31 - Math.clz32(word);
        word &= ~(1 << bit);
        found.push((w << 5) | bit);
        left -= 1;
      }
    }
    if (this.slots > this.built) {
      // those added since the build, merged in by rank
      for (let o = this.built; o < this.slots; o++) if (has(set, o) && (this.rank[o] as number) < end) found.push(o);
      found.sort((a, b) => (this.rank[b] as number) - (this.rank[a] as number));
    }
    for (const o of found.slice(0, rows)) into.push({ value, id: this.ids[o] as string });
  }

  /** The teachers carrying these names (a name the index does not know, from a newer catalogue, has none). */
  private nameOrdinals(names: readonly NameMatch[]): Int32Array[] {
    return names.flatMap(({ name }) => this.names.get(name) ?? []);
  }

  /** The name matches as a set. */
  private nameSet(names: readonly NameMatch[]): Bits {
    const set = new Uint32Array(this.everyone.length);
    for (const list of this.nameOrdinals(names)) for (const o of list) add(set, o);
    return set;
  }

  /**
   * A search's counts with these filters: `total`, the teachers whose document matches
   * or whose name is among `names`; `walkable`, those a walk of the order looks for
   * (decision 042): all of them, or for relevance the document matches that are not name
   * matches.
   */
  counts(
    terms: readonly SearchTerm[],
    names: readonly NameMatch[],
    filters: CountFilters,
    relevance: boolean,
  ): { total: number; walkable: number } {
    const documents = this.documentMatches(terms);
    const sets = this.filterSets(filters);
    const found = countAll([documents, ...sets]);
    let namesAlone = 0;
    let namesInDocuments = 0;
    for (const list of this.nameOrdinals(names)) {
      for (const o of list) {
        if (!sets.every((set) => has(set, o))) continue;
        if (has(documents, o)) namesInDocuments += 1;
        else namesAlone += 1;
      }
    }
    const total = found + namesAlone;
    return { total, walkable: relevance ? found - namesInDocuments : total };
  }

  /**
   * A search's facet counts: for each tag filter's value present the matches with the
   * other filters (a language's count ignores the language filter…), and the total.
   */
  facets(
    terms: readonly SearchTerm[],
    names: readonly NameMatch[],
    filters: CountFilters,
    present: { values: Readonly<Record<TagFilter, readonly string[]>> },
  ): Record<TagFacet, Record<string, number>> & { total: number } {
    const matches = this.searchMatches(terms, names);
    const tags = this.tagSets(filters);
    const price = this.priceRange(filters.min, filters.max);
    const out = { total: countAll([matches, ...tags, price]) } as Record<TagFacet, Record<string, number>> & { total: number };
    TAG_FILTERS.forEach((filter, i) => {
      const others = tags.filter((_, j) => j !== i);
      const counts: Record<string, number> = {};
      for (const value of present.values[filter]) counts[value] = countAll([matches, ...others, this.tag(filter, value), price]);
      out[facetOf(filter)] = counts;
    });
    return out;
  }

  /**
   * A relevance page's name matches with these filters: the first `rows` after `after` in
   * relevance order — score high to low, then id high to low, as the search statements
   * order them (ordinals are in PostgreSQL's order of the ids). Null when the cursor's
   * teacher is not in this index (the statements then answer).
   */
  namePage(
    names: readonly NameMatch[],
    filters: CountFilters,
    after: CursorPosition | null,
    rows: number,
  ): CursorPosition[] | null {
    const cut = after ? this.rankOf(after.id) : Number.POSITIVE_INFINITY;
    if (cut === undefined) return null;
    const byScore = new Map<number, Int32Array[]>();
    for (const match of names) {
      if (after && match.score > after.value) continue;
      const list = this.names.get(match.name);
      if (!list) continue;
      const lists = byScore.get(match.score);
      if (lists) lists.push(list);
      else byScore.set(match.score, [list]);
    }
    const sets = this.filterSets(filters);
    const page: CursorPosition[] = [];
    for (const score of [...byScore.keys()].sort((a, b) => b - a)) {
      // this score's teachers with the filters, read from the top (below the cursor at its score)
      const group = new Uint32Array(this.everyone.length);
      for (const list of byScore.get(score) as Int32Array[]) for (const o of list) add(group, o);
      this.fromTop(keepIn(group, sets), after && score === after.value ? cut : Number.POSITIVE_INFINITY, rows - page.length, score, page);
      if (page.length === rows) break;
    }
    return page;
  }

  /**
   * A search page from memory (decisions 095, 096): the first `rows` matches with these
   * filters after `after` in the order — (value, id) with the id as tie-break in the order's
   * direction, as the search statements order them. Relevance only past its name matches
   * (value 0): the document matches that
   * are not name matches, by id from the top. Null when it cannot answer (a cursor's
   * teacher not in this index, relevance among the names); the caller then reads the
   * database.
   */
  page(
    terms: readonly SearchTerm[],
    names: readonly NameMatch[],
    filters: CountFilters,
    order: PageOrder,
    after: CursorPosition,
    rows: number,
  ): CursorPosition[] | null {
    const cut = this.rankOf(after.id);
    if (cut === undefined) return null;
    const sets = this.filterSets(filters);
    if (order.column === 'score') {
      if (after.value !== 0) return null;
      // the document matches that are not name matches, by id from the top
      const rest = keepIn(this.documentMatches(terms).slice(), sets);
      const named = this.nameSet(names);
      for (let w = 0; w < rest.length; w++) rest[w] = (rest[w] as number) & ~(named[w] as number);
      const page: CursorPosition[] = [];
      this.fromTop(rest, cut < 0 ? Number.POSITIVE_INFINITY : cut, rows, 0, page);
      return page;
    }
    const matches = keepIn(this.searchMatches(terms, names), sets);
    const count = countAll([matches]);
    const range = order.column === 'price_per_hour' ? filters : ANY_VALUE;
    return this.valuePage({ matches, column: order.column, direction: order.direction, after, cut, rows, range }, count);
  }

  /**
   * A page without a search from memory: the first `rows` teachers with these filters
   * after `after` in the order — (value, id), the id as tie-break in the order's direction,
   * as the list statements order them. `matches`: how many teachers pass the filters
   * (CatalogueCounts). Null when the cursor's teacher is not in this index (the list
   * statement then answers).
   */
  listPage(filters: CountFilters, order: PageOrder, after: CursorPosition, rows: number, matches: number): CursorPosition[] | null {
    if (order.column === 'score') return null;
    const cut = this.rankOf(after.id);
    if (cut === undefined) return null;
    const range = order.column === 'price_per_hour' ? filters : ANY_VALUE;
    const read = { column: order.column, direction: order.direction, after, cut, rows, range };
    const inSet = () => this.inOrder({ ...read, matches: keepIn(this.everyone.slice(), this.filterSets(filters)) });
    if (!walks(matches, rows)) return inSet();
    // many match: the walk tests each teacher's tag sets and price (no set to build)
    const tags = this.tagSets(filters).filter((set) => set !== this.everyone);
    const prices = this.values.price_per_hour;
    const { min, max } = filters;
    return this.walk(read, (o) => tags.every((set) => has(set, o)) && (prices[o] as number) >= min && (prices[o] as number) <= max) ?? inSet();
  }

  /**
   * The first `rows` of a set (of `count` teachers) after (after.value, cut) in an order by
   * value. With many, the order is walked from the cursor, ~size / count entries per row
   * (WALK_MATCHES_PER_ROW); with few (or a walk that gives up), one pass over the set (inOrder).
   */
  private valuePage(read: ValueRead, count: number): CursorPosition[] {
    const { matches } = read;
    return (walks(count, read.rows) ? this.walk(read, (o) => has(matches, o)) : null) ?? this.inOrder(read);
  }

  /**
   * The first `rows` teachers that `keep` keeps after (after.value, cut), walking the order's
   * sorted ordinals up to the range's bound; null when that takes more than walkSteps entries.
   */
  private walk(
    { column, direction, after, cut, rows, range }: Omit<ValueRead, 'matches'>,
    keep: (o: number) => boolean,
  ): CursorPosition[] | null {
    const values = this.values[column];
    const sorted = this.sorted[column];
    const rank = this.rank;
    const length = this.size;
    // the first entry at or past (value, cut) in ascending (value, rank) order
    let lo = 0;
    let hi = length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const o = sorted[mid] as number;
      const v = values[o] as number;
      if (v < after.value || (v === after.value && (rank[o] as number) < cut)) lo = mid + 1;
      else hi = mid;
    }
    // ascending: from the first entry after the cursor's; descending: from the last before it
    const page: CursorPosition[] = [];
    const step = direction === 'desc' ? -1 : 1;
    let i = direction === 'desc' ? lo - 1 : lo;
    if (step === 1 && i < length && rank[sorted[i] as number] === cut && values[sorted[i] as number] === after.value) i += 1;
    for (let steps = walkSteps(this.size); i >= 0 && i < length && page.length < rows; i += step) {
      const o = sorted[i] as number;
      const v = values[o] as number;
      if (step === 1 ? v > range.max : v < range.min) break; // past the range: nothing further matches
      if (--steps < 0) return null;
      if (keep(o)) page.push({ value: v, id: this.ids[o] as string });
    }
    return page;
  }

  /** The first `rows` of a set after (after.value, cut) in an order by value: one pass over the set. */
  private inOrder({ matches, column, direction, after, cut, rows }: ValueRead): CursorPosition[] {
    const values = this.values[column];
    const rank = this.rank;
    const desc = direction === 'desc';
    /** whether ordinal a comes before b in the order */
    const before = (a: number, b: number) => {
      const va = values[a] as number;
      const vb = values[b] as number;
      const ra = rank[a] as number;
      const rb = rank[b] as number;
      return desc ? va > vb || (va === vb && ra > rb) : va < vb || (va === vb && ra < rb);
    };
    // the first `rows` in order, kept sorted: a match goes in only when it beats the last.
    // The matches are visited in the ids' direction of the order, so that among equal
    // values (ratings repeat) a later one never beats an earlier one: rarely an insertion.
    const found: number[] = [];
    const words = matches.length;
    for (let i = 0; i < words; i++) {
      const w = desc ? words - 1 - i : i;
      let word = matches[w] as number;
      while (word !== 0) {
        const bit = desc ? 31 - Math.clz32(word) : 31 - Math.clz32(word & -word);
        word &= ~(1 << bit);
        const o = (w << 5) | bit;
        const v = values[o] as number;
        const r = rank[o] as number;
        const comes = desc ? v < after.value || (v === after.value && r < cut) : v > after.value || (v === after.value && r > cut);
        if (!comes || rows === 0) continue;
        if (found.length === rows) {
          if (!before(o, found[rows - 1] as number)) continue;
          found.pop();
        }
        let at = found.length;
        while (at > 0 && before(o, found[at - 1] as number)) at--;
        found.splice(at, 0, o);
      }
    }
    const page: CursorPosition[] = [];
    for (const o of found) page.push({ value: values[o] as number, id: this.ids[o] as string });
    return page;
  }
}
