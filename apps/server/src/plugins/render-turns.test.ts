import { describe, expect, it } from 'vitest';
import { limitConcurrency, QueueFull } from './ssr.js';

/** A call that runs until its `finish` is called; records how many run at once. */
function calls(count: number) {
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const finishers: ((fail?: boolean) => void)[] = [];
  const make = (n: number) => () =>
    new Promise<number>((resolve, reject) => {
      running += 1;
      most = Math.max(most, running);
      started.push(n);
      finishers[n] = (fail) => {
        running -= 1;
        if (fail) reject(new Error(`call ${n} failed`));
        else resolve(n);
      };
    });
  return { runs: Array.from({ length: count }, (_, n) => make(n)), started, finishers, most: () => most };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('limitConcurrency (pages rendered a few at a time)', () => {
  it('runs at most `limit` calls at once, the others in the order they came, each with its own result', async () => {
    const inTurn = limitConcurrency(2);
    const { runs, started, finishers, most } = calls(5);
    const results = runs.map((run) => inTurn(run));
    await tick();
    expect(started).toEqual([0, 1]);
    finishers[1]!();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    finishers[0]!();
    finishers[2]!();
    await tick();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    finishers[3]!();
    finishers[4]!();
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3, 4]);
    expect(most()).toBe(2);
  });

  it('a call that fails gives its place to the next one and its caller gets the error', async () => {
    const inTurn = limitConcurrency(1);
    const { runs, started, finishers } = calls(2);
    const first = inTurn(runs[0]!);
    const second = inTurn(runs[1]!);
    await tick();
    finishers[0]!(true);
    await expect(first).rejects.toThrow('call 0 failed');
    await tick();
    expect(started).toEqual([0, 1]);
    finishers[1]!();
    await expect(second).resolves.toBe(1);
    // and the place is free again
    const { runs: more, started: startedMore, finishers: finishMore } = calls(1);
    const third = inTurn(more[0]!);
    await tick();
    expect(startedMore).toEqual([0]);
    finishMore[0]!();
    await expect(third).resolves.toBe(0);
  });

  it('lets at most maxWaiting calls wait: the next one fails at once with QueueFull, and runs nothing', async () => {
    const inTurn = limitConcurrency(1, 2);
    const { runs, started, finishers } = calls(4);
    const results = runs.slice(0, 3).map((run) => inTurn(run));
    await expect(inTurn(runs[3]!)).rejects.toBeInstanceOf(QueueFull);
    await tick();
    expect(started).toEqual([0]);
    for (const n of [0, 1, 2]) {
      await tick();
      finishers[n]!();
    }
    expect(await Promise.all(results)).toEqual([0, 1, 2]);
    expect(started).toEqual([0, 1, 2]);
  });
});
