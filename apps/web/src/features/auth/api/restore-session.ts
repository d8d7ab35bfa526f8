import { isSession } from '@learnlingo/contract/guards';
import type { AuthUser } from '../auth-slice';

/** better-auth's session endpoint (absolute, so that it also works under jsdom). */
const sessionUrl = () => `${globalThis.location.origin}/api/auth/get-session`;

/**
 * What one look at the session found: the user, `null` when signed out, or — when the
 * answer cannot be trusted (network, 429, 5xx) — `{ unknown }` with its headers if any.
 */
export type SessionCheck = AuthUser | null | { unknown: Headers | undefined };

/**
 * One plain request, not RTK Query: the shell starts it at once (RTK Query is not part
 * of the first page load) and lib/session-watch.ts, loaded meanwhile, applies it. The
 * answer is checked with the contract's zod-free guard.
 */
export async function checkSession(): Promise<SessionCheck> {
  try {
    const response = await fetch(sessionUrl(), { credentials: 'include', headers: { accept: 'application/json' } });
    const body: unknown = response.ok ? await response.json() : undefined;
    if (!isSession(body)) return { unknown: response.headers };
    return body && { name: body.user.name, email: body.user.email, role: body.user.role };
  } catch {
    return { unknown: undefined };
  }
}
