import type { Role } from '@learnlingo/contract/plain';
import type { RootState } from '../store';
import { initialAuthState } from '../features/auth/auth-slice';

/** Preloaded state of a signed-in user whose session is already known. */
export function signedInState(name = 'Ann Lee', email = 'ann@example.com', role?: Role): Partial<RootState> {
  return { auth: { ...initialAuthState, user: { name, email, ...(role && { role }) }, isLoggedIn: true, isRefresh: false } };
}

/** Preloaded state of a visitor whose (absent) session is already known. */
export function signedOutState(): Partial<RootState> {
  return { auth: { ...initialAuthState, isRefresh: false } };
}

/** better-auth's get-session answer for a signed-in user. */
export const sessionOf = (name = 'Ann Lee', email = 'ann@example.com', role?: Role) => ({
  user: { id: 'u1', name, email, emailVerified: false, ...(role && { role }) },
  session: { id: 's1', userId: 'u1', expiresAt: '2099-01-01T00:00:00.000Z' },
});
