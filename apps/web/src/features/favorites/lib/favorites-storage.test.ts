import { afterEach, describe, expect, it } from 'vitest';
import type { Teacher } from '@learnlingo/contract';
import { FAVORITES_STORAGE_KEY, readStoredFavorites, writeStoredFavorites } from './favorites-storage';
import { loadTeachers } from '../../teachers/testing/teachers-fixture';

const [first, second] = loadTeachers() as [Teacher, Teacher];

describe('favorites storage', () => {
  afterEach(() => localStorage.clear());

  it('writes under the key "teachers" and reads back', () => {
    writeStoredFavorites([first, second]);
    expect(JSON.parse(localStorage.getItem(FAVORITES_STORAGE_KEY) ?? '')).toHaveLength(2);
    expect(readStoredFavorites().map((t) => t.id)).toEqual([first.id, second.id]);
  });

  it('treats corrupt or foreign data as no favourites', () => {
    localStorage.setItem(FAVORITES_STORAGE_KEY, '{not json');
    expect(readStoredFavorites()).toEqual([]);
    localStorage.setItem(FAVORITES_STORAGE_KEY, JSON.stringify([{ id: 1 }]));
    expect(readStoredFavorites()).toEqual([]);
  });

  it('accepts the redux-persist shape', () => {
    localStorage.setItem(FAVORITES_STORAGE_KEY, JSON.stringify({ favorites: [first] }));
    expect(readStoredFavorites()).toEqual([first]);
  });

  it('no favourites left: the key goes', () => {
    writeStoredFavorites([first]);
    writeStoredFavorites([]);
    expect(localStorage.getItem(FAVORITES_STORAGE_KEY)).toBeNull();
  });
});
