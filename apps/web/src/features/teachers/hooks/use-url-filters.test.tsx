import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { makeStore } from '../../../store';
import { useUrlFilters } from './use-url-filters';

describe('useUrlFilters', () => {
  it('keeps every change made before the new URL renders (filters picked before the page was live, replayed in a row)', () => {
    const store = makeStore();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <Provider store={store}>
        <MemoryRouter initialEntries={['/teachers']}>{children}</MemoryRouter>
      </Provider>
    );
    const { result } = renderHook(() => ({ filters: useUrlFilters(), location: useLocation() }), { wrapper });
    act(() => {
      // one task, no render in between: each change starts from the one before, not from the last render
      result.current.filters.update({ price_min: 25 });
      result.current.filters.update({ price_max: 30 });
      result.current.filters.update({ sort: 'price-asc' });
    });
    expect(result.current.location.search).toBe('?sort=price-asc&price_min=25&price_max=30');
  });
});
