import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { forgetStore, makeStore, rememberedStores } from './store';
import { loggedOut, signedIn } from '../features/auth/auth-slice';
import { favoriteAdded } from '../features/favorites/favorites-slice';
import { setFilters } from '../features/teachers/filters-slice';

const teacher = {
  id: 't1', name: 'Jane', surname: 'Smith', languages: ['French'], levels: ['A1 Beginner' as const], rating: 4.8,
  reviews: [], price_per_hour: 30, lessons_done: 10, avatar_url: null, lesson_info: '', conditions: [], experience: '', country: null,
};

describe('store', () => {
  it('starts with the original initial state', () => {
    const state = makeStore().getState();
    expect(state.auth).toMatchObject({ user: { name: '', email: '' }, isLoggedIn: false, isRefresh: true });
    expect(state.teachers).toMatchObject({ items: [], favorites: [], isLoading: false, isError: false });
    expect(state.filters).toEqual({ q: '', sort: '', language: '', level: '', country: '', price_min: '', price: '', search: '' });
  });

  it('merges partial filter values', () => {
    const store = makeStore();
    store.dispatch(setFilters({ language: 'French' }));
    store.dispatch(setFilters({ price: '30' }));
    expect(store.getState().filters).toMatchObject({ language: 'French', level: '', price: '30' });
  });

  it('logout clears the user and resets the whole teachers state', () => {
    const store = makeStore();
    store.dispatch(signedIn({ name: 'Ann', email: 'ann@example.com' }));
    store.dispatch(favoriteAdded(teacher));
    expect(store.getState().teachers.favorites).toHaveLength(1);
    store.dispatch(loggedOut());
    expect(store.getState().auth.isLoggedIn).toBe(false);
    expect(store.getState().auth.user).toEqual({ name: '', email: '' });
    expect(store.getState().teachers.favorites).toEqual([]);
  });

  it('gains the api slice and middleware when RTK Query first loads, also in a store made before', async () => {
    const store = makeStore();
    expect(store.getState()).not.toHaveProperty('api');
    const { api } = await import('../lib/api');
    expect(store.getState().api?.config).toMatchObject({ reducerPath: 'api', middlewareRegistered: true });
    expect(makeStore().getState().api?.config.reducerPath).toBe('api');
    expect(api.reducerPath).toBe('api');
  });

  it('forgetStore: a store the server rendered with is no longer told of slices, nor are the stores that have gone', async () => {
    setFlagsFromString('--expose_gc');
    const gc = runInNewContext('gc') as () => void;
    for (let i = 0; i < 2000; i += 1) makeStore();
    // (a WeakRef keeps its target until the current job ends)
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    const rendered = makeStore();
    expect(rememberedStores()).toBeGreaterThan(2000); // nothing swept them yet
    forgetStore(rendered);
    expect(rememberedStores()).toBeLessThan(100);
    expect(rendered.getState()).toHaveProperty('auth');
  });
});
