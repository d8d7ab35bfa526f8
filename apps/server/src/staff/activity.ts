import { desc, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { staffActivity, teacher, user } from '../db/schema.js';

/*
 * The staff's audit log (issue 24, decision 109): append-only, one row per staff change, written
 * by recordActivity inside the change's own transaction (the change and its row commit together
 * or not at all). Nothing in the app updates or deletes a row.
 */

/** Who made a change: a signed-in staff member, or the command line (`npm run admin`: id null). */
export interface Actor {
  id: string | null;
  name: string;
  email: string;
}

/** The command line's name in the log. */
export const COMMAND_LINE: Actor = { id: null, name: 'Command line (npm run admin)', email: '' };

/** What a change was: `user.role`, `user.deactivate`, `teacher.update`, `invitation.create`… (kind.verb) */
export interface ActivityInput {
  actor: Actor;
  action: string;
  subject: { type: string; id: string };
  /** the subject's fields that changed, before and after (null: did not exist / does not any more) */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Appends one row to the log, in `tx` (call it inside the change's own transaction). */
export async function recordActivity(tx: Db, input: ActivityInput): Promise<void> {
  await tx.insert(staffActivity).values({
    actorUserId: input.actor.id,
    actorName: input.actor.name,
    actorEmail: input.actor.email,
    action: input.action,
    subjectType: input.subject.type,
    subjectId: input.subject.id,
    before: input.before ?? null,
    after: input.after ?? null,
  });
}

export interface ActivityRow {
  id: number;
  at: string;
  actor: { id: string | null; name: string; email: string };
  action: string;
  subject: { type: string; id: string; label: string | null };
  before: unknown;
  after: unknown;
}

/**
 * A page of the log, newest first: the rows before `before` (an id; none: the newest), at most
 * `limit`, and the id to ask the next page with (null: no more). Keyset paging on the id, so
 * rows appended meanwhile never shift a page.
 */
export async function listActivity(
  db: Db,
  { before, limit }: { before?: number | undefined; limit: number },
): Promise<{ items: ActivityRow[]; next: number | null; total: number }> {
  const rows = await db
    .select()
    .from(staffActivity)
    .where(before === undefined ? undefined : lt(staffActivity.id, before))
    .orderBy(desc(staffActivity.id))
    .limit(limit + 1);
  const [count] = await db.select({ n: sql<number>`count(*)::int` }).from(staffActivity);
  const page = rows.slice(0, limit);
  const labels = await subjectLabels(db, page);
  return {
    items: page.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      actor: { id: row.actorUserId, name: row.actorName, email: row.actorEmail },
      action: row.action,
      subject: { type: row.subjectType, id: row.subjectId, label: labels.get(`${row.subjectType}:${row.subjectId}`) ?? null },
      before: row.before,
      after: row.after,
    })),
    next: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
    total: count?.n ?? 0,
  };
}

/** The page's subjects as they are named now: `user:id` → "Name <e-mail>", `teacher:id` → "Name Surname". */
async function subjectLabels(db: Db, rows: { subjectType: string; subjectId: string }[]): Promise<Map<string, string>> {
  const idsOf = (type: string) => [...new Set(rows.filter((row) => row.subjectType === type).map((row) => row.subjectId))];
  const labels = new Map<string, string>();
  const userIds = idsOf('user');
  if (userIds.length > 0) {
    for (const row of await db.select({ id: user.id, name: user.name, email: user.email }).from(user).where(inArray(user.id, userIds))) {
      labels.set(`user:${row.id}`, `${row.name} <${row.email}>`);
    }
  }
  const teacherIds = idsOf('teacher');
  if (teacherIds.length > 0) {
    for (const row of await db.select({ id: teacher.id, name: teacher.name, surname: teacher.surname }).from(teacher).where(inArray(teacher.id, teacherIds))) {
      labels.set(`teacher:${row.id}`, `${row.name} ${row.surname}`);
    }
  }
  return labels;
}
