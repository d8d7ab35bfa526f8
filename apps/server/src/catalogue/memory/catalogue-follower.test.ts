import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FeedRead } from '../sql/catalogue-feed.js';
import { CatalogueFollower } from './catalogue-follower.js';

// The follower's rules (decision 107) on a feed in memory, time by fake timers.

function feed() {
  const rows: { seq: number; teacherId: string }[] = [];
  const state = { version: 1, trimmed: 0, reads: 0, trims: 0 };
  return {
    rows,
    state,
    read: async (after: number, limit: number): Promise<FeedRead> => {
      state.reads += 1;
      return {
        version: state.version,
        trimmed: state.trimmed,
        last: rows.at(-1)?.seq ?? 0,
        changes: rows.filter((row) => row.seq > after).slice(0, limit),
      };
    },
    trim: async () => {
      state.trims += 1;
      return 0;
    },
    write: (...ids: string[]) => {
      for (const teacherId of ids) rows.push({ seq: (rows.at(-1)?.seq ?? 0) + 1, teacherId });
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('CatalogueFollower', () => {
  it('starts at the end of the feed, then applies what follows in batches, each teacher once per batch', async () => {
    const source = feed();
    source.write('a', 'b');
    const applied: string[][] = [];
    const resets: number[] = [];
    const follower = new CatalogueFollower(source, { reset: (v) => resets.push(v), apply: async (ids) => void applied.push(ids) }, { pollMs: 0, batch: 3 });
    await follower.catchUp();
    expect([applied, follower.position()]).toEqual([[], 2]); // what came before is in what it builds
    source.write('c', 'd', 'c', 'e', 'f');
    await follower.catchUp();
    expect(applied).toEqual([['c', 'd'], ['e', 'f']]);
    expect(follower.position()).toBe(7);
    expect(resets).toEqual([]);
  });

  it('a new version, or a feed trimmed past its position, is a reset; after it, the feed from its end', async () => {
    const source = feed();
    const resets: number[] = [];
    const applied: string[][] = [];
    const follower = new CatalogueFollower(source, { reset: (v) => resets.push(v), apply: async (ids) => void applied.push(ids) }, { pollMs: 0 });
    await follower.catchUp();
    source.write('a');
    source.state.version = 2;
    await follower.catchUp();
    expect([resets, applied, follower.resets, await follower.currentVersion()]).toEqual([[2], [], 1, 2]);
    source.write('b', 'c');
    source.rows.splice(0, 3); // trimmed, unread
    source.state.trimmed = 3;
    await follower.catchUp();
    expect([resets, applied, follower.position()]).toEqual([[2, 2], [], 3]);
    await follower.catchUp(); // an empty feed trimmed to its position: no more resets
    expect(follower.resets).toBe(2);
  });

  it('polls every pollMs on its own, and trims every trimEveryMs', async () => {
    vi.useFakeTimers();
    const source = feed();
    const applied: string[][] = [];
    let now = 0;
    const follower = new CatalogueFollower(
      source,
      { reset: () => {}, apply: async (ids) => void applied.push(ids) },
      { pollMs: 200, trimEveryMs: 60_000, retentionMs: 600_000 },
      () => now,
    );
    follower.start();
    await vi.advanceTimersByTimeAsync(200);
    source.write('a');
    await vi.advanceTimersByTimeAsync(199);
    expect(applied).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(applied).toEqual([['a']]);
    expect(source.state.trims).toBe(0);
    now = 60_000;
    await vi.advanceTimersByTimeAsync(200);
    expect(source.state.trims).toBe(1);
    now = 119_999;
    await vi.advanceTimersByTimeAsync(200);
    expect(source.state.trims).toBe(1);
    now = 120_000;
    await vi.advanceTimersByTimeAsync(200);
    expect(source.state.trims).toBe(2);
    follower.stop();
    const reads = source.state.reads;
    await vi.advanceTimersByTimeAsync(1000);
    expect(source.state.reads).toBe(reads);
  });

  it('a burst of wake-ups shares one read: at once after a quiet spell, then no sooner than wakeGapMs after the last', async () => {
    vi.useFakeTimers();
    const source = feed();
    const applied: string[][] = [];
    let now = 1000;
    const follower = new CatalogueFollower(source, { reset: () => {}, apply: async (ids) => void applied.push(ids) }, { pollMs: 200 }, () => now);
    await follower.catchUp();
    const reads = source.state.reads;
    now += 1000;
    source.write('a');
    follower.wake(); // quiet before: read at once
    await vi.advanceTimersByTimeAsync(0);
    expect([applied, source.state.reads - reads]).toEqual([[['a']], 1]);
    for (const id of ['b', 'c', 'd']) {
      now += 10;
      vi.advanceTimersByTime(10);
      source.write(id);
      follower.wake();
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(source.state.reads - reads).toBe(1); // 30 ms after the last read: waiting (default gap: 50 = min(50, 200 / 4))
    now += 20;
    await vi.advanceTimersByTimeAsync(20);
    expect([applied, source.state.reads - reads]).toEqual([[['a'], ['b', 'c', 'd']], 2]);
    follower.stop();
    follower.wake();
    await vi.advanceTimersByTimeAsync(100);
    expect(source.state.reads - reads).toBe(2);
  });

  it('wakes at once when it does not poll (wakeGapMs 0)', async () => {
    const source = feed();
    const applied: string[][] = [];
    const follower = new CatalogueFollower(source, { reset: () => {}, apply: async (ids) => void applied.push(ids) }, { pollMs: 0 });
    await follower.catchUp();
    source.write('a');
    follower.wake();
    source.write('b');
    follower.wake();
    await vi.waitFor(() => expect(applied.flat()).toEqual(['a', 'b']));
  });
});
