// Not with lib/api: RTK Query's focus listeners, under jsdom's `window`, keep every store's dispatch.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Middleware } from '@reduxjs/toolkit';
import { describe, expect, it } from 'vitest';
import { injectLazySlice, makeStore } from './store';
import { closeModal } from './ui-slice';
import { pendingFavoriteSlice } from '../features/favorites/pending-favorite-slice';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

describe('store memory (issue 27, decision 100)', () => {
  it('middleware that joined later keeps nothing of the stores it ran in, once they are gone', async () => {
    let alive = 0;
    const registry = new FinalizationRegistry<undefined>(() => {
      alive -= 1;
    });
    const watch = (target: object) => {
      registry.register(target, undefined);
      alive += 1;
    };
    // a lazily loaded slice's middleware (as RTK Query's joins with its code), and each store's API it is given
    const joined: Middleware = (storeApi) => {
      watch(storeApi);
      return (next) => (action) => next(action);
    };
    injectLazySlice(pendingFavoriteSlice, joined);

    const made = 500;
    const makeOne = () => {
      const store = makeStore();
      store.dispatch(closeModal());
      watch(store.getState());
    };
    for (let i = 0; i < made; i += 1) makeOne();
    expect(alive).toBe(made * 2);
    for (let round = 0; round < 10 && alive > 0; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      collect();
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    // one shared dynamic middleware kept, per middleware, what it made for every store
    expect(alive).toBe(0);
  });
});
