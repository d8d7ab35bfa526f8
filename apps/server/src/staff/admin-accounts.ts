import { emailSchema, nameSchema } from '@learnlingo/contract';
import { generateId } from 'better-auth';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { account, teacherAccount, user } from '../db/schema.js';
import type { Auth } from '../plugins/auth.js';
import { RESET_PASSWORD_PATH } from '../plugins/auth-account.js';
import { COMMAND_LINE, recordActivity } from './activity.js';

/*
 * `npm run admin` (issue 24): the first admin without a console. `add` makes the account an
 * admin — creating it when there is none, then e-mailing a set-password link through the
 * reset-password flow — and `remove` makes an admin a learner. Both are idempotent and
 * recorded in the activity log (the actor: the command line).
 */

export class AdminCommandError extends Error {
  override name = 'UsageError';
}

export interface AddAdminResult {
  outcome: 'created' | 'promoted' | 'already';
  /** whether a set-password link was queued (the account has no password yet) */
  linkQueued: boolean;
  /** what the account was before */
  previousRole: string | null;
}

function checked<T>(schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } } }, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new AdminCommandError(`${what}: ${result.error.issues[0]?.message ?? 'not valid'}`);
  return result.data;
}

/** The name a new admin gets without --name: the e-mail's local part. */
const nameFromEmail = (email: string) => email.slice(0, email.indexOf('@')).slice(0, 100) || 'Admin';

export async function addAdmin(db: Database, auth: Auth, input: { email: string; name?: string | undefined }): Promise<AddAdminResult> {
  const email = checked(emailSchema, input.email, 'EMAIL').toLowerCase();
  const name = input.name === undefined ? nameFromEmail(email) : checked(nameSchema, input.name, '--name');
  const result = await db.orm.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: user.id, role: user.role, banned: user.banned, teacherId: teacherAccount.teacherId })
      .from(user)
      .leftJoin(teacherAccount, eq(teacherAccount.userId, user.id))
      .where(eq(user.email, email))
      .for('update', { of: user });
    if (!existing) {
      const id = generateId();
      await tx.insert(user).values({ id, name, email, role: 'admin' });
      await recordActivity(tx, { actor: COMMAND_LINE, action: 'user.create', subject: { type: 'user', id }, after: { email, name, role: 'admin' } });
      return { id, outcome: 'created' as const, previousRole: null };
    }
    if (existing.role === 'admin' && !existing.banned) return { id: existing.id, outcome: 'already' as const, previousRole: existing.role };
    // an admin who cannot sign in is none: a deactivated account is reactivated too
    await tx.update(user).set({ role: 'admin', banned: false, banReason: null, banExpires: null }).where(eq(user.id, existing.id));
    if (existing.teacherId) await tx.delete(teacherAccount).where(eq(teacherAccount.userId, existing.id));
    await recordActivity(tx, {
      actor: COMMAND_LINE,
      action: 'user.role',
      subject: { type: 'user', id: existing.id },
      before: { role: existing.role, ...(existing.banned && { active: false }), ...(existing.teacherId && { teacherId: existing.teacherId }) },
      after: { role: 'admin', ...(existing.banned && { active: true }), ...(existing.teacherId && { teacherId: null }) },
    });
    return { id: existing.id, outcome: 'promoted' as const, previousRole: existing.role };
  });

  // No password yet (just made, or made without one): the reset flow's link sets it.
  const [credential] = await db.orm
    .select({ id: account.id })
    .from(account)
    .where(and(eq(account.userId, result.id), eq(account.providerId, 'credential'), isNotNull(account.password)));
  const linkQueued = credential === undefined;
  if (linkQueued) await auth.api.requestPasswordReset({ body: { email, redirectTo: RESET_PASSWORD_PATH } });
  return { outcome: result.outcome, linkQueued, previousRole: result.previousRole };
}

export type RemoveAdminResult = { outcome: 'demoted'; adminsLeft: number } | { outcome: 'not-admin'; role: string };

export async function removeAdmin(db: Database, rawEmail: string): Promise<RemoveAdminResult> {
  const email = checked(emailSchema, rawEmail, 'EMAIL').toLowerCase();
  return db.orm.transaction(async (tx) => {
    const [existing] = await tx.select({ id: user.id, role: user.role }).from(user).where(eq(user.email, email)).for('update');
    if (!existing) throw new AdminCommandError(`No account has the e-mail ${email}; nothing changed.`);
    if (existing.role !== 'admin') return { outcome: 'not-admin' as const, role: existing.role };
    await tx.update(user).set({ role: 'learner' }).where(eq(user.id, existing.id));
    await recordActivity(tx, { actor: COMMAND_LINE, action: 'user.role', subject: { type: 'user', id: existing.id }, before: { role: 'admin' }, after: { role: 'learner' } });
    const admins = await tx.select({ id: user.id }).from(user).where(eq(user.role, 'admin'));
    return { outcome: 'demoted' as const, adminsLeft: admins.length };
  });
}
