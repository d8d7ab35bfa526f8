import { http, HttpResponse } from 'msw';
import type { RootState } from '../../../store';
import { apiUrl } from '../../../test/msw-server';

export const ann = { id: 'u1', name: 'Ann Lee', email: 'ann@example.com' };

/** A signed-in store and a server that agrees (get-session answers with the user). */
export function signedInState(): Partial<RootState> {
  return {
    auth: { user: { name: ann.name, email: ann.email }, isLoggedIn: true, isRefresh: false, isLoading: false, error: null },
  };
}

export const signedInSession = http.get(apiUrl('/auth/get-session'), () =>
  HttpResponse.json({ user: ann, session: { id: 's1', userId: ann.id, expiresAt: '2099-01-01T00:00:00.000Z' } }),
);
