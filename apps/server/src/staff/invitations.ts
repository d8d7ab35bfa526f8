import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { INVITATION_DAYS, type Invitation, type InvitationPreview, type InvitationStatus, type TeacherInvitations } from '@learnlingo/contract';
import { generateId } from 'better-auth';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { account, session, teacher, teacherAccount, teacherInvitation, user } from '../db/schema.js';
import { enqueueMail } from '../mail/index.js';
import { passwordOptions } from '../plugins/auth-password.js';
import { HttpError } from '../plugins/errors.js';
import { recordActivity, type Actor } from './activity.js';

/*
 * Invitations (issue 24, decision 109): an admin invites an e-mail address to an existing
 * teacher profile; the e-mailed link (/invite?token=…) sets that account's password and binds
 * it, as a teacher, to the profile. One pending invitation per profile (a new one revokes the
 * last); the link works once and for INVITATION_DAYS; re-sending makes a new link (the old one
 * stops working); revoking ends it. The token is kept as its SHA-256 only.
 */

export const INVITATION_MS = INVITATION_DAYS * 24 * 60 * 60_000;

export interface InvitationContext {
  publicOrigin: string;
  /** the clock (ms since the epoch) */
  now: () => number;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
/** 192 random bits, 32 characters: the link stays under 76 characters, so the mail is plain 7-bit text */
const newToken = () => randomBytes(24).toString('base64url');
export const invitationLink = (publicOrigin: string, token: string) => `${publicOrigin}/invite?token=${token}`;

type InvitationRow = typeof teacherInvitation.$inferSelect;

function statusOf(row: InvitationRow, now: number): InvitationStatus {
  if (row.usedAt) return 'used';
  if (row.revokedAt) return 'revoked';
  return row.expiresAt.getTime() <= now ? 'expired' : 'pending';
}

const toInvitation = (row: InvitationRow, now: number): Invitation => ({
  id: row.id,
  teacherId: row.teacherId,
  email: row.email,
  status: statusOf(row, now),
  createdAt: row.createdAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
});

/** "Ann Lee": a teacher's name as the mail and the page say it. */
async function teacherName(tx: Db, teacherId: string): Promise<string> {
  const [row] = await tx.select({ name: teacher.name, surname: teacher.surname }).from(teacher).where(eq(teacher.id, teacherId));
  if (!row) throw new HttpError(404, 'NOT_FOUND', `No teacher with id ${teacherId}`);
  return `${row.name} ${row.surname}`;
}

async function boundAccount(tx: Db, teacherId: string) {
  const [row] = await tx
    .select({ id: user.id, name: user.name, email: user.email })
    .from(teacherAccount)
    .innerJoin(user, eq(user.id, teacherAccount.userId))
    .where(eq(teacherAccount.teacherId, teacherId));
  return row ?? null;
}

/** The profile's account (if bound) and its invitations, newest first. */
export async function listInvitations(db: Db, teacherId: string, now: number): Promise<TeacherInvitations> {
  await teacherName(db, teacherId);
  const rows = await db.select().from(teacherInvitation).where(eq(teacherInvitation.teacherId, teacherId)).orderBy(desc(teacherInvitation.createdAt));
  return { account: await boundAccount(db, teacherId), items: rows.map((row) => toInvitation(row, now)) };
}

async function sendInvitationMail(tx: Db, to: string, name: string, link: string): Promise<void> {
  await enqueueMail(tx, {
    to,
    subject: 'You are invited to teach on LearnLingo',
    text:
      'Hello,\n\n' +
      `The school invites you to LearnLingo as the teacher ${name.replace(/\p{Cc}+/gu, ' ').slice(0, 120)}.\n` +
      `To set your password and sign in, open this link within ${INVITATION_DAYS} days:\n\n` +
      `${link}\n\n` +
      'The link works once. If you did not expect it, ignore this e-mail.\n\n' +
      'LearnLingo\n',
  });
}

/** The profile is not bound yet, and the address is not an admin's or another profile's account. */
async function checkInvitable(tx: Db, teacherId: string, email: string): Promise<void> {
  if (await boundAccount(tx, teacherId)) {
    throw new HttpError(409, 'CONFLICT', 'This teacher already has an account; one account per profile');
  }
  const [existing] = await tx
    .select({ role: user.role, teacherId: teacherAccount.teacherId })
    .from(user)
    .leftJoin(teacherAccount, eq(teacherAccount.userId, user.id))
    .where(eq(user.email, email));
  if (existing?.role === 'admin') throw new HttpError(409, 'CONFLICT', 'This e-mail belongs to an admin; invite another address');
  if (existing?.teacherId) throw new HttpError(409, 'CONFLICT', 'This e-mail’s account already has a teacher profile');
}

/** Invites `email` to the profile (revoking its pending invitation, if any) and e-mails the link. */
export async function inviteTeacher(db: Db, ctx: InvitationContext, actor: Actor, teacherId: string, rawEmail: string): Promise<Invitation> {
  const email = rawEmail.toLowerCase();
  return db.transaction(async (tx) => {
    // the profile's row first: two invitations of one profile queue here
    const [locked] = await tx.select({ id: teacher.id }).from(teacher).where(eq(teacher.id, teacherId)).for('update');
    if (!locked) throw new HttpError(404, 'NOT_FOUND', `No teacher with id ${teacherId}`);
    const name = await teacherName(tx, teacherId);
    await checkInvitable(tx, teacherId, email);
    const now = ctx.now();
    await tx
      .update(teacherInvitation)
      .set({ revokedAt: new Date(now) })
      .where(and(eq(teacherInvitation.teacherId, teacherId), isNull(teacherInvitation.usedAt), isNull(teacherInvitation.revokedAt)));
    const token = newToken();
    const [row] = await tx
      .insert(teacherInvitation)
      .values({
        id: randomUUID(),
        teacherId,
        email,
        tokenHash: hashOf(token),
        invitedBy: actor.id,
        createdAt: new Date(now),
        expiresAt: new Date(now + INVITATION_MS),
      })
      .returning();
    await sendInvitationMail(tx, email, name, invitationLink(ctx.publicOrigin, token));
    await recordActivity(tx, { actor, action: 'invitation.create', subject: { type: 'teacher', id: teacherId }, after: { email, invitationId: row!.id } });
    return toInvitation(row!, now);
  });
}

async function lockedInvitation(tx: Db, id: string): Promise<InvitationRow> {
  const [row] = await tx.select().from(teacherInvitation).where(eq(teacherInvitation.id, id)).for('update');
  if (!row) throw new HttpError(404, 'NOT_FOUND', 'No such invitation');
  return row;
}

/** A new link for a pending or expired invitation (the old link stops working), valid INVITATION_DAYS again. */
export async function resendInvitation(db: Db, ctx: InvitationContext, actor: Actor, id: string): Promise<Invitation> {
  return db.transaction(async (tx) => {
    const row = await lockedInvitation(tx, id);
    const now = ctx.now();
    const status = statusOf(row, now);
    if (status === 'used' || status === 'revoked') throw new HttpError(409, 'CONFLICT', `This invitation was ${status}; invite again instead`);
    await checkInvitable(tx, row.teacherId, row.email);
    const token = newToken();
    const [updated] = await tx
      .update(teacherInvitation)
      .set({ tokenHash: hashOf(token), expiresAt: new Date(now + INVITATION_MS) })
      .where(eq(teacherInvitation.id, id))
      .returning();
    await sendInvitationMail(tx, row.email, await teacherName(tx, row.teacherId), invitationLink(ctx.publicOrigin, token));
    await recordActivity(tx, {
      actor,
      action: 'invitation.resend',
      subject: { type: 'teacher', id: row.teacherId },
      before: { expiresAt: row.expiresAt.toISOString() },
      after: { email: row.email, invitationId: id, expiresAt: updated!.expiresAt.toISOString() },
    });
    return toInvitation(updated!, now);
  });
}

/** Ends a pending (or expired) invitation: its link no longer works. Revoking twice changes nothing. */
export async function revokeInvitation(db: Db, ctx: InvitationContext, actor: Actor, id: string): Promise<Invitation> {
  return db.transaction(async (tx) => {
    const row = await lockedInvitation(tx, id);
    const now = ctx.now();
    const status = statusOf(row, now);
    if (status === 'revoked') return toInvitation(row, now);
    if (status === 'used') throw new HttpError(409, 'CONFLICT', 'This invitation was used; change the account’s role in People instead');
    const [updated] = await tx.update(teacherInvitation).set({ revokedAt: new Date(now) }).where(eq(teacherInvitation.id, id)).returning();
    await recordActivity(tx, {
      actor,
      action: 'invitation.revoke',
      subject: { type: 'teacher', id: row.teacherId },
      before: { email: row.email, invitationId: id, status },
      after: { status: 'revoked' },
    });
    return toInvitation(updated!, now);
  });
}

const UNUSABLE = 'This invitation link does not work any more: it was used, revoked or has expired. Ask the school for a new one.';

/** The pending invitation a link's token names, or a 404 saying the link does not work. */
async function usableInvitation(tx: Db, token: string, now: number, lock: boolean): Promise<InvitationRow> {
  const query = tx.select().from(teacherInvitation).where(eq(teacherInvitation.tokenHash, hashOf(token)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row || statusOf(row, now) !== 'pending') throw new HttpError(404, 'NOT_FOUND', UNUSABLE);
  return row;
}

/** What the invitation page shows: the address, the teacher, whether the account exists. */
export async function previewInvitation(db: Db, token: string, now: number): Promise<InvitationPreview> {
  const row = await usableInvitation(db, token, now, false);
  const [existing] = await db.select({ id: user.id }).from(user).where(eq(user.email, row.email));
  return { email: row.email, teacherName: await teacherName(db, row.teacherId), accountExists: existing !== undefined };
}

/**
 * Accepts an invitation: the account with the invited address (made now, named `name`, when
 * there is none) gets the password, the role teacher and the profile; the link is used up. An
 * existing account's other sessions end (its password changed). All in one transaction.
 */
export async function acceptInvitation(
  db: Db,
  now: number,
  input: { token: string; name?: string | undefined; password: string },
): Promise<{ email: string }> {
  const hash = await passwordOptions.hash(input.password);
  return db.transaction(async (tx) => {
    const invitation = await usableInvitation(tx, input.token, now, true);
    await checkInvitable(tx, invitation.teacherId, invitation.email);
    const [existing] = await tx
      .select({ id: user.id, name: user.name, role: user.role, banned: user.banned })
      .from(user)
      .where(eq(user.email, invitation.email))
      .for('update');
    let userId: string;
    let name: string;
    if (existing) {
      if (existing.banned) throw new HttpError(403, 'FORBIDDEN', 'This account has been deactivated. Please contact the school.');
      ({ id: userId, name } = existing);
      await tx.update(user).set({ role: 'teacher', emailVerified: true }).where(eq(user.id, userId));
      const updated = await tx
        .update(account)
        .set({ password: hash, updatedAt: new Date(now) })
        .where(and(eq(account.userId, userId), eq(account.providerId, 'credential')))
        .returning({ id: account.id });
      if (updated.length === 0) {
        await tx.insert(account).values({ id: generateId(), accountId: userId, providerId: 'credential', userId, password: hash, updatedAt: new Date(now) });
      }
      await tx.delete(session).where(eq(session.userId, userId));
    } else {
      if (!input.name) throw new HttpError(400, 'VALIDATION_ERROR', 'Invalid request body', { name: 'Please enter your name' });
      name = input.name;
      userId = generateId();
      await tx.insert(user).values({ id: userId, name, email: invitation.email, emailVerified: true, role: 'teacher' });
      await tx.insert(account).values({ id: generateId(), accountId: userId, providerId: 'credential', userId, password: hash, updatedAt: new Date(now) });
    }
    await tx.insert(teacherAccount).values({ teacherId: invitation.teacherId, userId });
    await tx.update(teacherInvitation).set({ usedAt: new Date(now) }).where(eq(teacherInvitation.id, invitation.id));
    await recordActivity(tx, {
      actor: { id: userId, name, email: invitation.email },
      action: 'invitation.accept',
      subject: { type: 'teacher', id: invitation.teacherId },
      before: existing ? { role: existing.role } : null,
      after: { role: 'teacher', userId, invitationId: invitation.id },
    });
    return { email: invitation.email };
  });
}
