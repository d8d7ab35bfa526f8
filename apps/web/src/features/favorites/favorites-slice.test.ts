import { describe, expect, it } from 'vitest';
import type { Teacher } from '@learnlingo/contract';
import { makeStore } from '../../store';
import { loggedOut, refreshFinished, signedIn } from '../auth';
import { FAVORITES_STORAGE_KEY } from './lib/favorites-storage';
import { favoriteAdded, favoriteRemoved, favoritesLoaded } from './favorites-slice';
import { loadTeachers } from '../teachers/testing/teachers-fixture';

const [first, second, third] = loadTeachers() as [Teacher, Teacher, Teacher];
const stored = () => localStorage.getItem(FAVORITES_STORAGE_KEY);

describe('teachers slice: favourites in local storage (key "teachers")', () => {
  it('starts with the browser copy, for an instant reload', () => {
    localStorage.setItem(FAVORITES_STORAGE_KEY, JSON.stringify([first, second]));
    expect(makeStore().getState().teachers.favorites.map((t) => t.id)).toEqual([first.id, second.id]);
  });

  it('keeps one order, newest first like the server, in the store and after a reload', () => {
    const store = makeStore();
    store.dispatch(favoriteAdded(first));
    store.dispatch(favoriteAdded(second));
    store.dispatch(favoriteAdded(third));
    const ids = () => store.getState().teachers.favorites.map((t) => t.id);
    expect(ids()).toEqual([third.id, second.id, first.id]);
    expect(makeStore().getState().teachers.favorites.map((t) => t.id)).toEqual(ids());
    // the server's list (newest first) replaces it in the same order
    store.dispatch(favoritesLoaded([third, second, first]));
    expect(ids()).toEqual([third.id, second.id, first.id]);
  });

  it('starts empty on corrupt or invalid data', () => {
    localStorage.setItem(FAVORITES_STORAGE_KEY, '[{"id":');
    expect(makeStore().getState().teachers.favorites).toEqual([]);
    localStorage.setItem(FAVORITES_STORAGE_KEY, JSON.stringify([{ ...first, levels: ['Z9'] }]));
    expect(makeStore().getState().teachers.favorites).toEqual([]);
  });

  it('writes every change and removes the key when the list is emptied', () => {
    const store = makeStore();
    store.dispatch(favoriteAdded(first));
    expect(JSON.parse(stored() ?? '[]')).toEqual([first]);
    store.dispatch(favoriteRemoved(first.id));
    expect(stored()).toBeNull();
  });

  it('logout clears the browser copy', () => {
    const store = makeStore();
    store.dispatch(signedIn({ name: 'Ann', email: 'ann@example.com' }));
    store.dispatch(favoriteAdded(first));
    store.dispatch(loggedOut());
    expect(store.getState().teachers.favorites).toEqual([]);
    expect(stored()).toBeNull();
  });

  it('drops the copy when the session turns out to be gone at start', () => {
    localStorage.setItem(FAVORITES_STORAGE_KEY, JSON.stringify([first]));
    const store = makeStore();
    store.dispatch(refreshFinished());
    expect(store.getState().teachers.favorites).toEqual([]);
    expect(stored()).toBeNull();
  });

  it("a session at start: the copy becomes the page's list (a heart the server answered before the app ran)", () => {
    localStorage.setItem(FAVORITES_STORAGE_KEY, JSON.stringify([first]));
    // the server-rendered page came with the server's list, which the form had changed
    const store = makeStore({
      teachers: { favorites: [second, first] },
      auth: { user: { name: 'Ann', email: 'ann@example.com' }, isLoggedIn: true, isRefresh: true, isLoading: false, error: null },
    } as Parameters<typeof makeStore>[0]);
    store.dispatch(refreshFinished());
    expect(JSON.parse(stored() ?? '[]')).toEqual([second, first]);
  });
});
