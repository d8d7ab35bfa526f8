import { spelledByCatalogue, TAG_COLUMNS, TAG_FILTERS, valuesOf } from '../model/registry.js';
import type { FeedRepository } from '../sql/catalogue-feed.js';
import type { CardCache } from '../sql/teachers-repository.js';
import type { CatalogueCache } from './catalogue-cache.js';
import { CatalogueCounts, type CountedTeacher } from './catalogue-counts.js';
import { CatalogueFollower, type FollowerOptions } from './catalogue-follower.js';
import type { IndexedTeacher, SearchIndex } from './search-index.js';

/**
 * One teacher's change as a server applied it: how the counts saw it before (null: not
 * counted; undefined: unknown, the index not being built) and after (null: hidden or gone).
 */
export interface TeacherChange {
  id: string;
  before: CountedTeacher | null | undefined;
  after: CountedTeacher | null;
}

export interface LiveCatalogueOptions extends FollowerOptions {
  /** builds the search index from the database (the full rebuild) */
  buildIndex: () => Promise<SearchIndex>;
  /** the counts from the database, while the index is not built */
  readCounts: () => Promise<CatalogueCounts>;
  onIndexBuilt?: (index: SearchIndex, ms: number) => void;
  onIndexFailed?: (error: unknown) => void;
}

/** A teacher as the counts see it: its tag columns (registry.ts) and its price. */
const counted = (teacher: IndexedTeacher): CountedTeacher => {
  const row: Record<string, unknown> = { price: teacher.price };
  for (const filter of TAG_FILTERS) row[TAG_COLUMNS[filter].column] = teacher[TAG_COLUMNS[filter].column];
  return row as unknown as CountedTeacher;
};

/**
 * Whether a list page's filters (its cursor scope, cursorScope: the order, the search,
 * each tag filter's value, the price range) admit a teacher. A tag of the catalogue's own
 * spelling is compared whatever its case; a null bound is no bound (±Infinity is null in JSON).
 */
const admits = (scope: unknown[], teacher: CountedTeacher): boolean => {
  const tags = scope.slice(2, 2 + TAG_FILTERS.length) as (string | null)[];
  const [min, max] = scope.slice(2 + TAG_FILTERS.length) as (number | null)[];
  return (
    TAG_FILTERS.every((filter, i) => {
      const wanted = tags[i];
      if (wanted === null || wanted === undefined) return true;
      const values = valuesOf(teacher, filter);
      return spelledByCatalogue(filter) ? values.some((v) => v.toLowerCase() === wanted.toLowerCase()) : values.includes(wanted);
    }) &&
    (min === null || min === undefined || teacher.price >= min) &&
    (max === null || max === undefined || teacher.price <= max)
  );
};

/**
 * Whether a response the API cache keeps (by its key, see teachers-routes) may have changed
 * with these teachers: a list page whose filters admit one of them before or after (a teacher
 * outside a page's filters, then and now, changes neither its rows nor its total — whatever
 * its search text, which only narrows), every facet response (each counts every filter
 * value, and the values present), the stats, and the changed teachers' own.
 */
export function responseAffected(key: string, changes: readonly TeacherChange[]): boolean {
  if (key.startsWith('["list",')) {
    const scope = JSON.parse((JSON.parse(key) as [string, string])[1]) as unknown[];
    return changes.some(
      ({ before, after }) => before === undefined || (before !== null && admits(scope, before)) || (after !== null && admits(scope, after)),
    );
  }
  if (key.startsWith('["facets",') || key === 'stats') return true;
  return changes.some(({ id }) => key === `teacher:${id}`);
}

const TEACHER_PAGE = /^\/teachers\/([^/?#]+)/;

/**
 * Whether a server-rendered page (the HTML cache's key: its path and query) may have
 * changed with these teachers: every page but another teacher's own (a teacher's page
 * shows that teacher alone; lists, the home page's figures and the rest may show any).
 */
export function pageAffected(url: string, changes: readonly TeacherChange[]): boolean {
  const page = TEACHER_PAGE.exec(url);
  if (!page) return true;
  let id: string;
  try {
    id = decodeURIComponent(page[1] as string);
  } catch {
    return true;
  }
  return changes.some((change) => change.id === id);
}

/**
 * What one server keeps of the catalogue in memory — the search index, the counts, the cards
 * and the response cache — following the change feed (decision 107): a single teacher's
 * change is applied to each in place; a bulk write (a new version), or a feed trimmed past
 * this server's position, drops everything and the index is built anew (`rebuilds` counts
 * those builds).
 */
export class LiveCatalogue {
  readonly follower: CatalogueFollower;
  /** how many times the search index was built from the database */
  rebuilds = 0;
  /** settled once this server listens for the feed's notifications (PostgreSQL), or will not */
  listening: Promise<void> = Promise.resolve();
  /**
   * How many changed documents the index carries before it is built anew in the background
   * (each search term checks them one by one); null: max(2000, a twentieth of the teachers).
   */
  compactAfter: number | null = null;
  private compacting: Promise<void> | null = null;
  /** the index and counts kept up to date change by change, once the index is built */
  private live: { index: SearchIndex; counts: CatalogueCounts } | undefined;
  private readonly listeners = new Set<(changes: readonly TeacherChange[]) => void>();

  constructor(
    private readonly feed: FeedRepository,
    private readonly cache: CatalogueCache,
    private readonly options: LiveCatalogueOptions,
  ) {
    this.follower = new CatalogueFollower(
      feed,
      {
        reset: () => {
          this.live = undefined;
          this.cache.flush();
          for (const listener of this.listeners) listener([]);
        },
        apply: (ids) => this.apply(ids),
      },
      options,
    );
  }

  /**
   * What the catalogue this server serves is, as one number (CatalogueFollower.state): the
   * feed read first when the cache reads the version at every request.
   */
  async state(): Promise<number> {
    await this.cache.currentVersion();
    return this.follower.state();
  }

  /** Calls `listener` after each applied change ([] after a reset: everything changed). */
  onChange(listener: (changes: readonly TeacherChange[]) => void): void {
    this.listeners.add(listener);
  }

  /** The counts without a search: kept with the index once it is built, else read once per version. */
  async counts(): Promise<CatalogueCounts> {
    await this.cache.currentVersion();
    return this.live?.counts ?? this.cache.memo('counts', this.options.readCounts);
  }

  /**
   * The search index, built in the background once per version (undefined until then): the
   * build notes the feed's position first, and once built applies every change since (they
   * may or may not be in what it read: applying one again changes nothing).
   */
  searchIndex(): Promise<SearchIndex | undefined> {
    return this.cache.ready('search-index', async () => {
      const resets = this.follower.resets;
      const from = await this.follower.exclusive(() => this.follower.position());
      const started = performance.now();
      try {
        const index = await this.options.buildIndex();
        this.rebuilds += 1;
        await this.follower.exclusive(async () => {
          if (this.follower.resets !== resets) return; // a reset since: this index is dropped with its version
          const ids = await this.changedSince(from, this.follower.position());
          if (ids === null) throw new Error('the change feed was trimmed while the index was built');
          if (ids.length > 0) await this.putAll(index, ids, null);
          this.live = { index, counts: new CatalogueCounts(index.countedTeachers()) };
          // the counts read from the database are replaced by the index's
          this.cache.forget((key) => key === 'counts');
        });
        this.options.onIndexBuilt?.(index, Math.round(performance.now() - started));
        return index;
      } catch (error) {
        this.options.onIndexFailed?.(error);
        throw error;
      }
    });
  }

  /** The background build of the index under way (compact), if any. */
  compaction(): Promise<void> | null {
    return this.compacting;
  }

  /** Whether the index has carried enough changes (or has little room left) to be built anew. */
  private drifted(index: SearchIndex): boolean {
    const { changedDocuments, roomLeft } = index.drift();
    return changedDocuments > (this.compactAfter ?? Math.max(2000, index.size / 20)) || roomLeft < 64;
  }

  /**
   * Builds the index anew in the background, as a start does (counted in `rebuilds`), applies
   * the changes since it began, and swaps it in with counts of its own — the same catalogue,
   * so no response or card kept is dropped. The old index serves meanwhile.
   */
  compact(): Promise<void> {
    this.compacting ??= (async () => {
      const resets = this.follower.resets;
      try {
        const from = await this.follower.exclusive(() => this.follower.position());
        const index = await this.options.buildIndex();
        this.rebuilds += 1;
        await this.follower.exclusive(async () => {
          if (this.follower.resets !== resets || !this.live) return; // dropped with its version
          const ids = await this.changedSince(from, this.follower.position());
          if (ids === null || (ids.length > 0 && (await this.putAll(index, ids, null)) === null)) return;
          this.live = { index, counts: new CatalogueCounts(index.countedTeachers()) };
          this.cache.replace('search-index', index);
        });
      } catch (error) {
        this.options.onIndexFailed?.(error);
      } finally {
        this.compacting = null;
      }
    })();
    return this.compacting;
  }

  /** The teachers changed in (from, to]; null when the feed no longer holds them all. */
  private async changedSince(from: number, to: number): Promise<string[] | null> {
    const ids = new Set<string>();
    for (let after = from; after < to; ) {
      const read = await this.feed.read(after, 1000);
      if (read.trimmed > from) return null;
      const changes = read.changes.filter((change) => change.seq <= to);
      for (const change of changes) ids.add(change.teacherId);
      if (changes.length < read.changes.length || read.changes.length < 1000) break;
      after = (read.changes.at(-1) as { seq: number }).seq;
    }
    return [...ids];
  }

  /** Where a new id goes among the index's (its rank), asked of the database's order of ids; undefined: no room between. */
  private async rankFor(index: SearchIndex, id: string): Promise<number | undefined> {
    const list = index.idsInOrder();
    const stride = 256;
    const sample = list.filter((_, i) => i % stride === 0).map((entry) => entry.id);
    const bucket = await this.feed.countBefore(sample, id);
    let at = 0;
    if (bucket > 0) {
      const from = (bucket - 1) * stride;
      const ids = list.slice(from, from + stride).map((entry) => entry.id);
      at = from + (await this.feed.countBefore(ids, id));
    }
    const lo = at > 0 ? (list[at - 1] as { rank: number }).rank : -1;
    const hi = at < list.length ? (list[at] as { rank: number }).rank : lo + 2;
    const rank = (lo + hi) / 2;
    return rank > lo && rank < hi ? rank : undefined;
  }

  /**
   * Puts these teachers (re-read now) in the index and, given them, the counts; returns the
   * changes as they were applied, or null when the index has no room for a new teacher.
   */
  private async putAll(index: SearchIndex, ids: readonly string[], counts: CatalogueCounts | null): Promise<TeacherChange[] | null> {
    const now = await this.feed.teachers(ids);
    const changes: TeacherChange[] = [];
    for (const id of ids) {
      const teacher = now.get(id) ?? null;
      const before = index.counted(id) ?? null;
      const rank = teacher !== null && !index.knows(id) ? await this.rankFor(index, id) : undefined;
      if (!index.put(id, teacher, rank)) return null;
      const after = teacher === null ? null : counted(teacher);
      counts?.change(before ?? undefined, after ?? undefined);
      changes.push({ id, before, after });
    }
    return changes;
  }

  /** One batch of the feed: each teacher re-read and applied to what this server keeps. */
  private async apply(ids: string[]): Promise<void> {
    let changes: TeacherChange[] | null = null;
    const live = this.live;
    if (live) {
      changes = await this.putAll(live.index, ids, live.counts);
      if (changes === null) {
        // no room left for new teachers: built anew (counted in rebuilds), the rest dropped
        this.live = undefined;
        this.cache.flush();
        for (const listener of this.listeners) listener([]);
        return;
      }
    } else {
      // no index yet: its build applies these when done; the counts read from the database are read again
      this.cache.forget((key) => key === 'counts');
      const now = await this.feed.teachers(ids);
      changes = ids.map((id) => {
        const teacher = now.get(id);
        return { id, before: undefined, after: teacher ? counted(teacher) : null };
      });
    }
    if (live && this.drifted(live.index)) void this.compact();
    const cards = this.cache.settledNow<CardCache>('cards');
    for (const id of ids) cards?.delete(id);
    this.cache.drop((key) => responseAffected(key, changes));
    // the sitemap's counts and positions
    this.cache.forget((key) => key.startsWith('seo:'));
    for (const listener of this.listeners) listener(changes);
  }
}
