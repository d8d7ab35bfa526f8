import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { and, asc, eq, gte, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { booking, calendarFeed, teacher } from '../../db/schema.js';
import { lessonUid } from '../booking/booking-mail.js';
import { calendarFeedFile, type CalendarEvent } from '../booking/ics.js';
import { lessonState } from '../booking/lesson-state.js';
import { LESSON_MS } from '../booking/schedule.js';

/*
 * Private calendar feeds (issue 25, decision 118): one URL per teacher and per learner account,
 * which a calendar app polls. The token is HMAC-SHA256(server secret, nonce): the database keeps
 * the nonce (to show the URL again) and the token's SHA-256 (to find the feed), never the token,
 * so a copy of the database alone opens no feed. Renewing draws a new nonce: the old URL is then
 * no feed's (404). A feed holds what its owner already sees: a teacher's learners by name,
 * language and reason (as /teach shows them), a learner's teachers by name; no address, no phone.
 */

export type FeedOwner = { teacherId: string } | { userId: string };

/** How far back a feed reaches (recent lessons stay, so a cancelled one can be seen as cancelled). */
export const FEED_PAST_DAYS = 30;
/** The most lessons one feed lists (the earliest first, from FEED_PAST_DAYS ago). */
export const FEED_MAX_EVENTS = 1000;

const tokenOf = (secret: string, nonce: string) => createHmac('sha256', secret).update(`calendar-feed:${nonce}`).digest('base64url');
export const hashFeedToken = (token: string) => createHash('sha256').update(token).digest('hex');
/** A token as it appears in a feed's URL: 43 base64url characters. */
export const FEED_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const ownerIs = (owner: FeedOwner): SQL => ('teacherId' in owner ? eq(calendarFeed.teacherId, owner.teacherId) : eq(calendarFeed.userId, owner.userId));

export function calendarFeeds(secret: string, publicOrigin: string) {
  const urlOf = (nonce: string) => `${publicOrigin}/calendar/${tokenOf(secret, nonce)}.ics`;

  return {
    /** The owner's feed URL, or null if they never asked for one. */
    async url(db: Db, owner: FeedOwner): Promise<string | null> {
      const [row] = await db.select({ nonce: calendarFeed.nonce }).from(calendarFeed).where(ownerIs(owner));
      return row ? urlOf(row.nonce) : null;
    },

    /** A new URL for the owner (the first, or one that replaces the old, which stops working at once). */
    async renew(db: Db, owner: FeedOwner): Promise<string> {
      const nonce = randomBytes(24).toString('base64url');
      const tokenHash = hashFeedToken(tokenOf(secret, nonce));
      const target = 'teacherId' in owner ? calendarFeed.teacherId : calendarFeed.userId;
      const targetWhere = 'teacherId' in owner ? sql`${calendarFeed.teacherId} is not null` : sql`${calendarFeed.userId} is not null`;
      await db
        .insert(calendarFeed)
        .values({ id: randomUUID(), nonce, tokenHash, ...owner })
        .onConflictDoUpdate({ target, targetWhere, set: { nonce, tokenHash, createdAt: sql`now()` } });
      return urlOf(nonce);
    },

    /** The feed's owner for a token from a URL, or null (unknown, renewed since, or malformed). */
    async ownerOf(db: Db, token: string): Promise<FeedOwner | null> {
      if (!FEED_TOKEN.test(token)) return null;
      const [row] = await db
        .select({ teacherId: calendarFeed.teacherId, userId: calendarFeed.userId })
        .from(calendarFeed)
        .where(eq(calendarFeed.tokenHash, hashFeedToken(token)));
      if (!row) return null;
      return row.teacherId ? { teacherId: row.teacherId } : row.userId ? { userId: row.userId } : null;
    },

    /** The owner's lessons as a calendar (text/calendar): upcoming and recent, cancelled ones marked so. */
    async calendar(db: Db, owner: FeedOwner, now: number): Promise<string> {
      const rows = await db
        .select({
          id: booking.id,
          start: booking.start,
          createdAt: booking.createdAt,
          cancelledAt: booking.cancelledAt,
          cancelledBy: booking.cancelledBy,
          answerBy: booking.answerBy,
          sequence: booking.icsSequence,
          language: booking.language,
          fullName: booking.fullName,
          reason: booking.reason,
          teacherName: teacher.name,
          teacherSurname: teacher.surname,
        })
        .from(booking)
        .innerJoin(teacher, eq(teacher.id, booking.teacherId))
        .where(
          and(
            'teacherId' in owner ? eq(booking.teacherId, owner.teacherId) : eq(booking.userId, owner.userId),
            isNotNull(booking.start),
            // a visitor's booking still waiting for its e-mail link (decision 102) was never announced
            isNull(booking.holdExpiresAt),
            gte(booking.start, new Date(now - FEED_PAST_DAYS * 86_400_000)),
          ),
        )
        .orderBy(asc(booking.start), asc(booking.id))
        .limit(FEED_MAX_EVENTS);
      const forTeacher = 'teacherId' in owner;
      const events: CalendarEvent[] = rows.map((r) => {
        const start = r.start!;
        const language = r.language ? `${r.language} ` : '';
        // a request still waiting is TENTATIVE; one declined, expired (even before the sweep wrote it) or cancelled is CANCELLED
        const state = lessonState({ ...r, holdExpiresAt: null }, now);
        const other = forTeacher ? r.fullName || 'a learner' : `${r.teacherName} ${r.teacherSurname}`;
        return {
          uid: lessonUid(r.id),
          start,
          end: new Date(start.getTime() + LESSON_MS),
          stamp: r.cancelledAt ?? r.createdAt,
          summary: `LearnLingo: ${language}trial lesson with ${other}`,
          description: forTeacher
            ? `Trial ${language}lesson (60 minutes) with ${other}. Reason for learning: ${r.reason}`
            : `Trial ${language}lesson (60 minutes) with ${other}.`,
          cancelled: state === 'cancelled' || state === 'declined' || state === 'expired',
          tentative: state === 'requested',
          sequence: r.sequence,
        };
      });
      return calendarFeedFile(forTeacher ? 'LearnLingo: my lessons to teach' : 'LearnLingo: my trial lessons', events);
    },
  };
}

export type CalendarFeeds = ReturnType<typeof calendarFeeds>;
