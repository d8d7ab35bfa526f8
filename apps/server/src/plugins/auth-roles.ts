import { DEFAULT_ROLE, type Role } from '@learnlingo/contract';
import { admin } from 'better-auth/plugins/admin';
import { createAccessControl } from 'better-auth/plugins/access';
import { defaultStatements } from 'better-auth/plugins/admin/access';

/*
 * The roles in better-auth's admin plugin (decision 109). A role says what may be done, not to
 * whose rows: "a teacher edits only their own profile" is the staff guards' check
 * (src/staff/guards.ts), which also guard every console route by role.
 *
 * The plugin's own HTTP endpoints (/api/auth/admin/*) would change roles and bans without an
 * audit row, so no role is granted a statement that writes: an admin may only read through
 * them (list and get users, list sessions), everyone else nothing (403). Every staff change
 * goes through /api/staff/*, which writes and records it in one transaction.
 */
const ac = createAccessControl(defaultStatements);

const roles = {
  learner: ac.newRole({ user: [], session: [] }),
  teacher: ac.newRole({ user: [], session: [] }),
  admin: ac.newRole({ user: ['list', 'get'], session: ['list'] }),
} satisfies Record<Role, unknown>;

/** What a deactivated account's sign-in answers (403, code BANNED_USER); the sign-in form shows it. */
export const DEACTIVATED_MESSAGE = 'This account has been deactivated. Please contact the school if you think this is a mistake.';

export const adminPlugin = () =>
  admin({
    ac,
    roles,
    defaultRole: DEFAULT_ROLE,
    adminRoles: ['admin'],
    bannedUserMessage: DEACTIVATED_MESSAGE,
  });
