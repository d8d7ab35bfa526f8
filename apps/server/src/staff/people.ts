import type { Person, Role } from '@learnlingo/contract';
import { count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { session, teacherAccount, user } from '../db/schema.js';
import { HttpError } from '../plugins/errors.js';
import { recordActivity, type Actor } from './activity.js';

/*
 * People (issue 24): the accounts, searched and paged on the server; an admin changes a role
 * or deactivates/reactivates an account, each change and its audit row in one transaction.
 */

/** What a deactivated account's row says (better-auth's admin plugin reads `banned`). */
export const DEACTIVATED_REASON = 'Deactivated by the school';

/** `%`, `_` and `\` taken literally in an ILIKE pattern. */
const literal = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

const personColumns = {
  id: user.id,
  name: user.name,
  email: user.email,
  role: user.role,
  banned: user.banned,
  createdAt: user.createdAt,
  teacherId: teacherAccount.teacherId,
};

type PersonRow = { id: string; name: string; email: string; role: string; banned: boolean | null; createdAt: Date; teacherId: string | null };

const toPerson = (row: PersonRow): Person => ({
  id: row.id,
  name: row.name,
  email: row.email,
  role: row.role as Role,
  banned: row.banned === true,
  createdAt: row.createdAt.toISOString(),
  teacherId: row.teacherId,
});

/** A page of accounts whose name or e-mail holds `q` (any case), newest first. */
export async function listPeople(db: Db, { q, page, pageSize }: { q?: string | undefined; page: number; pageSize: number }) {
  const where: SQL | undefined = q ? or(ilike(user.name, `%${literal(q)}%`), ilike(user.email, `%${literal(q)}%`)) : undefined;
  const rows = await db
    .select(personColumns)
    .from(user)
    .leftJoin(teacherAccount, eq(teacherAccount.userId, user.id))
    .where(where)
    .orderBy(desc(user.createdAt), desc(user.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  const [total] = await db.select({ n: count() }).from(user).where(where);
  return { items: rows.map(toPerson), total: total?.n ?? 0, page, pageSize };
}

async function lockedPerson(tx: Db, id: string): Promise<PersonRow> {
  const [row] = await tx
    .select(personColumns)
    .from(user)
    .leftJoin(teacherAccount, eq(teacherAccount.userId, user.id))
    .where(eq(user.id, id))
    .for('update', { of: user });
  if (!row) throw new HttpError(404, 'NOT_FOUND', 'No such account');
  return row;
}

/**
 * Gives an account another role. An admin cannot change their own (the console would lock
 * them out); an account leaving `teacher` loses its profile binding (recorded).
 */
export async function setPersonRole(db: Db, actor: Actor, id: string, role: Role): Promise<Person> {
  return db.transaction(async (tx) => {
    const before = await lockedPerson(tx, id);
    if (id === actor.id) throw new HttpError(400, 'VALIDATION_ERROR', 'You cannot change your own role', { role: 'You cannot change your own role' });
    if (before.role === role) return toPerson(before);
    const unbind = role !== 'teacher' && before.teacherId !== null;
    await tx.update(user).set({ role }).where(eq(user.id, id));
    if (unbind) await tx.delete(teacherAccount).where(eq(teacherAccount.userId, id));
    await recordActivity(tx, {
      actor,
      action: 'user.role',
      subject: { type: 'user', id },
      before: { role: before.role, ...(unbind && { teacherId: before.teacherId }) },
      after: { role, ...(unbind && { teacherId: null }) },
    });
    return toPerson({ ...before, role, teacherId: unbind ? null : before.teacherId });
  });
}

/**
 * Deactivates (every session ends; sign-in is refused with DEACTIVATED_MESSAGE) or reactivates
 * an account. An admin cannot deactivate themselves.
 */
export async function setPersonActive(db: Db, actor: Actor, id: string, active: boolean): Promise<Person> {
  return db.transaction(async (tx) => {
    const before = await lockedPerson(tx, id);
    if (id === actor.id && !active) {
      throw new HttpError(400, 'VALIDATION_ERROR', 'You cannot deactivate your own account', { active: 'You cannot deactivate your own account' });
    }
    const wasActive = before.banned !== true;
    if (wasActive === active) return toPerson(before);
    await tx
      .update(user)
      .set(active ? { banned: false, banReason: null, banExpires: null } : { banned: true, banReason: DEACTIVATED_REASON, banExpires: null })
      .where(eq(user.id, id));
    if (!active) await tx.delete(session).where(eq(session.userId, id));
    await recordActivity(tx, {
      actor,
      action: active ? 'user.reactivate' : 'user.deactivate',
      subject: { type: 'user', id },
      before: { active: wasActive },
      after: { active },
    });
    return toPerson({ ...before, banned: !active });
  });
}

/** The signed-in staff member as the audit log names them. */
export const actorOf = (user: { id: string; name: string; email: string }): Actor => ({ id: user.id, name: user.name, email: user.email });

