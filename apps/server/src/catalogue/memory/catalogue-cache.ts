import { hash } from 'node:crypto';

export interface CachedResponse<Body extends string | Buffer = string> {
  /** the body: an API answer's JSON, already validated against the response schema; a page's UTF-8 bytes */
  body: Body;
  etag: string;
  /** the response's status when it is not 200 (a page's not-found answer is kept too) */
  status?: number;
}

/** What a cache fill gives: the body, or the body and a status other than 200. */
export type Computed<Body extends string | Buffer> = Body | { body: Body; status: number };

export function etagOf(body: string | Buffer): string {
  return `"${hash('sha1', body, 'base64url')}"`;
}

/** Whether a request's If-None-Match names this ETag, compared weakly (either may be weak), among others: answer 304. */
export function notModified(request: { headers: { 'if-none-match'?: string } }, etag: string): boolean {
  const match = request.headers['if-none-match'];
  const opaque = etag.replace(/^W\//, '');
  return !!match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}

/**
 * An in-process cache of serialised catalogue responses, keyed by the normalised query.
 *
 * Another process (an import, or another server on the same PostgreSQL) can change the
 * catalogue, which no memory here can see; every change bumps the catalogue_version row,
 * and the cache reads that row at most once per `checkEveryMs` and drops everything when
 * it moved. So a server serves an import's result within about a second, and a repeated
 * query costs one map lookup. See docs/decisions/005-catalogue-cache.md.
 */
export class CatalogueCache<Body extends string | Buffer = string> {
  private readonly entries = new Map<string, CachedResponse<Body>>();
  private readonly values = new Map<string, Promise<unknown>>();
  /** the memo values of this version that are computed (ready reads them) */
  private readonly settled = new Map<string, unknown>();
  /** responses being computed, by key: a second request for one joins the first */
  private readonly computing = new Map<string, Promise<CachedResponse<Body>>>();
  /** for each response being computed, whether a change has made it stale (drop): then not kept when done */
  private readonly staleness = new WeakMap<Promise<CachedResponse<Body>>, { stale: boolean }>();
  private version: number | null = null;
  private checkedAt = 0;
  private checking: Promise<void> | null = null;

  constructor(
    private readonly readVersion: () => Promise<number>,
    private readonly options: { checkEveryMs: number; maxEntries: number } = { checkEveryMs: 1000, maxEntries: 2000 },
  ) {}

  private async refresh(): Promise<void> {
    const now = Date.now();
    if (this.version !== null && now - this.checkedAt < this.options.checkEveryMs) return;
    this.checking ??= (async () => {
      try {
        const version = await this.readVersion();
        if (version !== this.version) {
          this.flush();
          this.version = version;
        }
        this.checkedAt = Date.now();
      } finally {
        this.checking = null;
      }
    })();
    await this.checking;
  }

  /** Drops everything kept and being computed (a computation begun before is not joined after). */
  flush(): void {
    this.entries.clear();
    this.values.clear();
    this.settled.clear();
    this.computing.clear();
  }

  /**
   * Drops the responses one change may have made stale (decision 107): those whose key
   * `affected` says so, kept or being computed (such a computation is neither joined nor
   * kept); the others stay.
   */
  drop(affected: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) if (affected(key)) this.entries.delete(key);
    for (const [key, computing] of [...this.computing]) {
      if (!affected(key)) continue;
      const staleness = this.staleness.get(computing);
      if (staleness) staleness.stale = true;
      this.computing.delete(key);
    }
  }

  /** Forgets the memo values whose key `affected` says so: the next memo computes them again. */
  forget(affected: (key: string) => boolean): void {
    for (const key of [...this.values.keys()]) {
      if (!affected(key)) continue;
      this.values.delete(key);
      this.settled.delete(key);
    }
  }

  /**
   * Replaces a memo value computed for the version as last read by another of the same
   * catalogue (a search index built anew, decision 107); nothing when there is none.
   */
  replace<T>(key: string, value: T): void {
    if (!this.settled.has(key)) return;
    this.values.set(key, Promise.resolve(value));
    this.settled.set(key, value);
  }

  /** A memo value computed for the version as last read, now (no version read): for a change to update in place. */
  settledNow<T>(key: string): T | undefined {
    return this.settled.get(key) as T | undefined;
  }

  /**
   * The response kept for `key`, or computed now. Requests for a key that is being computed
   * wait for that computation (a burst after a catalogue change computes each response
   * once) and share its failure too; with no entries kept (maxEntries 0) each computes its own.
   */
  async get(key: string, compute: () => Promise<Computed<Body>>): Promise<CachedResponse<Body>> {
    await this.refresh();
    const hit = this.entries.get(key);
    if (hit) {
      // keep recently used entries at the end (LRU eviction from the front)
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const running = this.computing.get(key);
    if (running) return running;
    const versionBefore = this.version;
    const staleness = { stale: false };
    const computing = (async () => {
      const computed = await compute();
      const entry: CachedResponse<Body> =
        typeof computed === 'string' || Buffer.isBuffer(computed)
          ? { body: computed, etag: etagOf(computed) }
          : { body: computed.body, etag: etagOf(computed.body), status: computed.status };
      if (this.version === versionBefore && this.options.maxEntries > 0 && !staleness.stale) {
        this.entries.set(key, entry);
        if (this.entries.size > this.options.maxEntries) {
          const oldest = this.entries.keys().next().value;
          if (oldest !== undefined) this.entries.delete(oldest);
        }
      }
      return entry;
    })();
    this.staleness.set(computing, staleness);
    if (this.options.maxEntries === 0) return computing;
    this.computing.set(key, computing);
    try {
      return await computing;
    } finally {
      if (this.computing.get(key) === computing) this.computing.delete(key);
    }
  }

  /**
   * A value derived from the catalogue, computed once per catalogue version and kept
   * whatever `maxEntries` says (it is not a response); a failed computation is not kept.
   */
  async memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
    await this.refresh();
    let value = this.values.get(key) as Promise<T> | undefined;
    if (!value) {
      const computed = compute();
      value = computed;
      this.values.set(key, computed);
      computed.then(
        (result) => {
          if (this.values.get(key) === computed) this.settled.set(key, result);
        },
        // a failed computation is forgotten, unless a newer one (a later version's) took its place
        () => {
          if (this.values.get(key) === computed) this.values.delete(key);
        },
      );
    }
    return value;
  }

  /**
   * A memo value if it is computed for the current version, else undefined — having begun
   * its computation (memo's), whose failure is the caller's `compute` to report: for a
   * value worth having but not worth waiting for.
   */
  async ready<T>(key: string, compute: () => Promise<T>): Promise<T | undefined> {
    this.memo(key, compute).catch(() => undefined);
    return this.peek(key);
  }

  /** A memo value if it is computed for the current version (nothing begun). */
  async peek<T>(key: string): Promise<T | undefined> {
    await this.refresh();
    return this.settled.get(key) as T | undefined;
  }

  /** The catalogue version as last read (at most once per `checkEveryMs`): what an ETag can follow. */
  async currentVersion(): Promise<number> {
    await this.refresh();
    return this.version ?? 0;
  }
}
