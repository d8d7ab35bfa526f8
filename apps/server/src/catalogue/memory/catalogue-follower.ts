import type { FeedRead } from '../sql/catalogue-feed.js';

export interface FeedSource {
  read(after: number, limit: number): Promise<FeedRead>;
  trim(olderThanMs: number): Promise<number>;
}

export interface FollowerHandlers {
  /**
   * Everything derived from the catalogue is to be dropped and built anew: a bulk write
   * moved the version, or this server fell behind what the feed still holds.
   */
  reset(version: number): void;
  /** These teachers changed (distinct, in feed order): re-read them and apply each. */
  apply(ids: string[]): Promise<void>;
}

export interface FollowerOptions {
  /** how often the feed is read (ms); 0: never on its own (each catchUp reads it) */
  pollMs: number;
  /** changes read per statement */
  batch?: number;
  /** how often this server trims the feed (ms; 0: never), and what it keeps (ms) */
  trimEveryMs?: number;
  retentionMs?: number;
  /**
   * A wake-up (wake: a NOTIFY, a write in this process) reads the feed no sooner than this
   * after the last read began (ms), so a burst of writes shares one read and one apply;
   * default: a quarter of pollMs, at most 50 (0 when pollMs is 0).
   */
  wakeGapMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * Follows the catalogue's change feed (decision 107): reads the version row and the feed's
 * rows after the last it applied, every `pollMs` (and whenever woken), and hands each batch
 * of changed teachers to `apply`, one batch at a time; a moved version, or a feed trimmed
 * past its position, is a `reset` (a full rebuild, as a bulk import always was). Work that
 * must not interleave with an apply (an index build's catch-up) runs through `exclusive`.
 */
export class CatalogueFollower {
  private version: number | null = null;
  /** the feed position applied: every change up to it is in what this server serves */
  private seq = 0;
  /** resets after the first read (a rebuild of everything) */
  resets = 0;
  private tail: Promise<unknown> = Promise.resolve();
  private queued: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastTrim = 0;
  /** when the last read began (this.now()) */
  private lastRead = -Infinity;
  private waking: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly source: FeedSource,
    private readonly handlers: FollowerHandlers,
    private readonly options: FollowerOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts the polls (unref'd: they never hold the process open). */
  start(): void {
    if (this.options.pollMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      this.catchUp().catch((error: unknown) => this.options.onError?.(error));
    }, this.options.pollMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.waking) clearTimeout(this.waking);
    this.timer = null;
    this.waking = null;
  }

  /**
   * Someone wrote (a NOTIFY, a write in this process): reads the feed — at once, or, when the
   * last read began less than wakeGapMs ago, that long after it (one read for all the
   * wake-ups meanwhile). At 50 edits/s that is ~20 reads and applies a second, not 50.
   */
  wake(): void {
    if (this.waking || this.stopped) return;
    const { pollMs, wakeGapMs = Math.min(50, pollMs / 4) } = this.options;
    const run = () => {
      this.waking = null;
      this.catchUp().catch((error: unknown) => this.options.onError?.(error));
    };
    const wait = this.lastRead + wakeGapMs - this.now();
    if (wait <= 0) run();
    else {
      this.waking = setTimeout(run, wait);
      this.waking.unref();
    }
  }

  /** Runs `work` when no apply runs, and none starts until it is done. */
  exclusive<T>(work: () => Promise<T> | T): Promise<T> {
    const run = this.tail.then(work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Reads the feed and applies what it finds; a call while one is waiting to start joins it. */
  catchUp(): Promise<void> {
    if (this.queued) return this.queued;
    const queued = this.exclusive(async () => {
      this.queued = null;
      await this.readAndApply();
    });
    this.queued = queued;
    return queued;
  }

  /** The position applied (changes up to it are served). */
  position(): number {
    return this.seq;
  }

  /** The catalogue version as last read (the first call reads it); `fresh`: read the feed now. */
  async currentVersion(fresh = false): Promise<number> {
    if (fresh || this.version === null) await this.catchUp();
    return this.version ?? 0;
  }

  /**
   * What the catalogue a server serves is, as one number: the version and the feed position
   * (an ETag, a search cursor's counts, follow it). The same on every server at that point.
   */
  async state(fresh = false): Promise<number> {
    const version = await this.currentVersion(fresh);
    // 2^21 versions × 2^32 positions within a safe integer, then it wraps (an ETag, not a key)
    return (version % 2 ** 21) * 2 ** 32 + (this.seq % 2 ** 32);
  }

  private async readAndApply(): Promise<void> {
    if (this.stopped) return;
    this.lastRead = this.now();
    const batch = this.options.batch ?? 1000;
    for (;;) {
      const feed = await this.source.read(this.seq, batch);
      if (this.version === null || feed.version !== this.version || feed.trimmed > this.seq) {
        const first = this.version === null;
        this.version = feed.version;
        // (the feed may be empty, trimmed to its last row: the position is then the trimmed one)
        this.seq = Math.max(feed.last, feed.trimmed);
        if (!first) {
          this.resets += 1;
          this.handlers.reset(feed.version);
        }
        break;
      }
      if (feed.changes.length === 0) break;
      await this.handlers.apply([...new Set(feed.changes.map((change) => change.teacherId))]);
      this.seq = (feed.changes.at(-1) as { seq: number }).seq;
      if (feed.changes.length < batch) break;
    }
    const { trimEveryMs = 60_000, retentionMs = 10 * 60_000 } = this.options;
    if (trimEveryMs > 0 && this.now() - this.lastTrim >= trimEveryMs) {
      this.lastTrim = this.now();
      await this.source.trim(retentionMs);
    }
  }
}
