import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  customType,
  date,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** PostgreSQL's full-text document type (Drizzle has none built in); written by SQL only. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
/** Bytes (photos, decision 110): a Buffer both ways, on PGlite (Uint8Array) and `pg` alike. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)),
});

/*
 * One schema for both engines (PGlite and PostgreSQL). drizzle-kit generates the SQL
 * migrations in ../../drizzle from this file: `npm run db:generate -w @learnlingo/server`.
 */

// ---------------------------------------------------------------- catalogue

export const teacher = pgTable(
  'teacher',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    surname: text('surname').notNull(),
    languages: text('languages').array().notNull(),
    levels: text('levels').array().notNull(),
    /** double precision: a JS number round-trips exactly, which the keyset cursor relies on */
    rating: doublePrecision('rating').notNull(),
    pricePerHour: doublePrecision('price_per_hour').notNull(),
    lessonsDone: integer('lessons_done').notNull().default(0),
    avatarUrl: text('avatar_url'),
    lessonInfo: text('lesson_info').notNull().default(''),
    conditions: text('conditions').array().notNull().default(sql`'{}'::text[]`),
    experience: text('experience').notNull().default(''),
    /** where the teacher lives (a country's name); null: not known. A tag filter (catalogue/model/registry.ts) */
    country: text('country'),
    /**
     * Hidden by the school (hideTeacher): the row stays (bookings and favourites reference
     * it) but the teacher has no card, language, search or name rows, and the list, counts,
     * teacher page and sitemap leave it out. See decision 107.
     */
    hidden: boolean('hidden').notNull().default(false),
    /**
     * Kept by refreshTeacherRating (catalogue/sql/teacher-rating.ts, decision 112): the number of
     * visible reviews (imported + from lessons); null until a lesson's review first changed it.
     * `rating_imported` / `lessons_imported` keep the import's figures the live ones are built on.
     */
    reviewCount: integer('review_count'),
    ratingImported: doublePrecision('rating_imported'),
    lessonsImported: integer('lessons_imported'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** draft | published | hidden (decision 111); `hidden` is true exactly when it is not published (a check) */
    status: text('status').$type<'draft' | 'published' | 'hidden'>().notNull().default('published'),
    /** why the school hid the teacher */
    statusReason: text('status_reason'),
    /** when the teacher was first public (null: never, a draft): a hidden page that was public answers 410 */
    publishedAt: timestamp('published_at', { withTimezone: true }).defaultNow(),
    /** the last edit made in the console; an import over it records that it overwrote it (decision 111) */
    consoleEditedAt: timestamp('console_edited_at', { withTimezone: true }),
  },
  (t) => [
    // No GIN index on the arrays and no index on price alone: the list is served by the
    // covering index below, and those indexes only tempted the planner (generic plans
    // above all) into bitmap scans that sort every match. See decision 011.
    /*
     * The list order is `ORDER BY rating DESC, id DESC`, whose default is NULLS FIRST.
     * drizzle-kit's bare `.desc()` would emit DESC NULLS LAST, which the planner cannot
     * use for that order, so the placement is spelled out (checked by EXPLAIN in a test).
     */
    /*
     * The filter columns follow the order columns, so a filtered page is an index-only
     * scan: price is checked as an index condition and the array containments on the
     * index tuple, and the heap is read only for the rows of the page (deferred join in
     * teachers-repository). See docs/decisions/011-catalogue-query-performance.md.
     */
    index('teacher_list_order_idx').on(
      t.rating.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
      t.pricePerHour,
      t.languages,
      t.levels,
      t.country,
    ),
    // The other sorts' orders, built the same way (order columns, then the filter columns:
    // every filter's column, catalogue/model/registry.ts). price-desc reads the price index
    // backwards. See catalogue/model/sort-orders.ts's SORT_ORDERS.
    index('teacher_price_order_idx').on(t.pricePerHour, t.id, t.languages, t.levels, t.country),
    index('teacher_lessons_order_idx').on(
      t.lessonsDone.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
      t.pricePerHour,
      t.languages,
      t.levels,
      t.country,
    ),
    // the few hidden teachers, which the list statement without a language skips (decision 107)
    index('teacher_hidden_idx').on(t.id).where(sql`${t.hidden}`),
  ],
);

/**
 * Each teacher as the API returns it (JSON text in the contract's teacherSchema shape,
 * reviews included), kept by the catalogue writer in the same transaction as the teacher
 * and its reviews. The catalogue list reads it by primary key instead of building the
 * JSON per request. See decision 011 (addendum 2).
 */
export const teacherCard = pgTable('teacher_card', {
  teacherId: text('teacher_id')
    .primaryKey()
    .references(() => teacher.id, { onDelete: 'cascade' }),
  json: text('json').notNull(),
});

/**
 * One row per (teacher, language) with the list's order and filter columns: a page filtered
 * by language reads only that language's teachers from its index (an index-only scan in
 * list order) instead of testing every teacher of the main list index. Kept by the
 * catalogue writer with the teacher. See decision 011 (addendum 3).
 */
export const teacherLanguage = pgTable(
  'teacher_language',
  {
    teacherId: text('teacher_id')
      .notNull()
      .references(() => teacher.id, { onDelete: 'cascade' }),
    language: text('language').notNull(),
    rating: doublePrecision('rating').notNull(),
    pricePerHour: doublePrecision('price_per_hour').notNull(),
    levels: text('levels').array().notNull(),
    lessonsDone: integer('lessons_done').notNull().default(0),
    country: text('country'),
  },
  (t) => [
    primaryKey({ columns: [t.teacherId, t.language] }),
    // the list order within one language, NULLS placement as the query's (see teacher above)
    index('teacher_language_list_idx').on(
      t.language,
      t.rating.desc().nullsFirst(),
      t.teacherId.desc().nullsFirst(),
      t.pricePerHour,
      t.levels,
      t.country,
    ),
    index('teacher_language_price_idx').on(t.language, t.pricePerHour, t.teacherId, t.levels, t.country),
    index('teacher_language_lessons_idx').on(
      t.language,
      t.lessonsDone.desc().nullsFirst(),
      t.teacherId.desc().nullsFirst(),
      t.pricePerHour,
      t.levels,
      t.country,
    ),
  ],
);

/**
 * What a search (`q`) reads: one row per teacher with its name and its text, lower-cased
 * and unaccented (`unaccent` is not immutable, so it cannot sit in an index expression;
 * the catalogue writer stores its result), and the list's order and filter columns, so a
 * search never touches `teacher`. `name_text` has a trigram index (misspelt names, via
 * word similarity), `document` a full-text index (words of the lesson info, conditions,
 * experience, languages; prefixes while typing). Kept by the catalogue writer with the
 * teacher. See decision 040.
 */
export const teacherSearch = pgTable(
  'teacher_search',
  {
    teacherId: text('teacher_id')
      .primaryKey()
      .references(() => teacher.id, { onDelete: 'cascade' }),
    nameText: text('name_text').notNull(),
    document: tsvector('document').notNull(),
    languages: text('languages').array().notNull(),
    levels: text('levels').array().notNull(),
    rating: doublePrecision('rating').notNull(),
    pricePerHour: doublePrecision('price_per_hour').notNull(),
    lessonsDone: integer('lessons_done').notNull(),
    country: text('country'),
  },
  (t) => [
    index('teacher_search_name_trgm_idx').using('gin', t.nameText.op('gin_trgm_ops')),
    index('teacher_search_document_idx').using('gin', t.document),
  ],
);

/**
 * Every distinct `teacher_search.name_text` once, with its own trigram index (decision 095):
 * a search's name matches are found among the distinct names, and each server's SearchIndex
 * knows which teachers carry each name. A name shared by thousands of teachers (the
 * generated catalogue has ~1,440 names for 100,000 teachers) is then one similarity to
 * check, not thousands of rows to read and recheck. Kept by the catalogue writer.
 */
export const teacherName = pgTable(
  'teacher_name',
  {
    nameText: text('name_text').primaryKey(),
  },
  (t) => [index('teacher_name_trgm_idx').using('gin', t.nameText.op('gin_trgm_ops'))],
);

/** The distinct words of the search documents (letters only, 3 or more), for typo-tolerant search (decision 108); kept by the catalogue writer. */
export const teacherWord = pgTable(
  'teacher_word',
  {
    word: text('word').primaryKey(),
    /** how many search documents have the word (the writer deletes it at 0; decision 107's addendum, migration 0021) */
    documents: integer('documents').notNull().default(0),
  },
  (t) => [index('teacher_word_trgm_idx').using('gin', t.word.op('gin_trgm_ops'))],
);

export const review = pgTable(
  'review',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    teacherId: text('teacher_id')
      .notNull()
      .references(() => teacher.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    reviewerName: text('reviewer_name').notNull(),
    reviewerRating: doublePrecision('reviewer_rating').notNull(),
    comment: text('comment').notNull(),
    /** hidden by the school, with its reason (decision 120): out of the card, page, rating and count */
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenReason: text('hidden_reason'),
  },
  (t) => [index('review_teacher_position_idx').on(t.teacherId, t.position)],
);

/** One row (id = 1); bumped by every import and seed so caches in any process can notice. */
export const catalogueVersion = pgTable('catalogue_version', {
  id: smallint('id').primaryKey(),
  version: integer('version').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** the greatest catalogue_change.seq trimmed from the feed: a server behind it rebuilds (decision 107) */
  feedTrimmed: bigint('feed_trimmed', { mode: 'number' }).notNull().default(0),
});

/**
 * The change feed (decision 107): one row per single-teacher write (updateTeacher,
 * createTeacher, hideTeacher), in that write's transaction and under the catalogue writers'
 * advisory lock, so `seq` order is commit order. Every server reads the rows after the last
 * it applied and re-reads those teachers; bulk imports bump catalogue_version instead.
 */
export const catalogueChange = pgTable('catalogue_change', {
  seq: bigserial('seq', { mode: 'number' }).primaryKey(),
  teacherId: text('teacher_id').notNull(),
  changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------- better-auth

/* Declared by hand after better-auth's drizzle schema (core tables + database rate limit). */

export const user = pgTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
  /** learner | teacher | admin (better-auth's admin plugin; decision 109); never set by its owner */
  role: text('role').notNull().default('learner'),
  /** deactivated by an admin: no session can start (the admin plugin's check) */
  banned: boolean('banned').default(false),
  banReason: text('ban_reason'),
  banExpires: timestamp('ban_expires', { withTimezone: true }),
});

export const session = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    token: text('token').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .$onUpdate(() => new Date()),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    /** the admin plugin's impersonation (which no role here is granted) */
    impersonatedBy: text('impersonated_by'),
  },
  (t) => [index('session_user_id_idx').on(t.userId)],
);

export const account = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .$onUpdate(() => new Date()),
  },
  (t) => [index('account_user_id_idx').on(t.userId)],
);

export const verification = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
);

/** better-auth's rate limiter with `storage: 'database'`: shared by every server process. */
export const rateLimit = pgTable('rate_limit', {
  id: text('id').primaryKey(),
  key: text('key').notNull().unique(),
  count: integer('count').notNull(),
  lastRequest: bigint('last_request', { mode: 'number' }).notNull(),
});

// ---------------------------------------------------------------- per-user data

export const favorite = pgTable(
  'favorite',
  {
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    teacherId: text('teacher_id')
      .notNull()
      .references(() => teacher.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.teacherId] }),
    index('favorite_user_created_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * A teacher's time zone and weekly hours (ranges of whole hours per weekday, in that zone).
 * A teacher without a row teaches the school's hours (SCHOOL_HOURS in SCHOOL_TIME_ZONE),
 * read at request time so changing them needs no data change. See decision 060.
 */
export const teacherAvailability = pgTable('teacher_availability', {
  teacherId: text('teacher_id')
    .primaryKey()
    .references(() => teacher.id, { onDelete: 'cascade' }),
  /** IANA name, e.g. America/New_York */
  timeZone: text('time_zone').notNull(),
  /** WeeklyHours: 7 lists (Monday first) of [fromHour, toHour) pairs, 0–24 */
  weeklyHours: jsonb('weekly_hours').$type<number[][][]>().notNull(),
  /** the least time between booking and start, in hours (issue 25, decision 116) */
  noticeHours: smallint('notice_hours').notNull().default(12),
  /** how far ahead learners may book, in days */
  horizonDays: smallint('horizon_days').notNull().default(14),
  /** 'instant': lessons are confirmed at once; 'request': each booking waits for the teacher's answer (decision 117) */
  bookingMode: text('booking_mode', { enum: ['instant', 'request'] }).notNull().default('instant'),
});

export const booking = pgTable(
  'booking',
  {
    id: uuid('id').primaryKey(),
    teacherId: text('teacher_id')
      .notNull()
      .references(() => teacher.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
    fullName: text('full_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** the lesson's start; null for bookings made before lesson times existed ("time to be agreed") */
    start: timestamp('start', { withTimezone: true }),
    language: text('language'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** SHA-256 (hex) of the private link's token; the token itself is never stored */
    tokenHash: text('token_hash').unique(),
    /**
     * A visitor's booking waits for its e-mail link until this time (decision 102); null: a
     * real lesson. Past it, the hold no longer keeps the slot (released by the next booking
     * of that slot, or the sweep).
     */
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }),
    /** the learner's IANA zone, for the times in e-mails sent later (the confirmation) */
    learnerTimeZone: text('learner_time_zone'),
    /** no-shows (decision 112): marked within 48 h of the lesson's end; then no review is asked */
    learnerAbsentAt: timestamp('learner_absent_at', { withTimezone: true }),
    teacherAbsentAt: timestamp('teacher_absent_at', { withTimezone: true }),
    /** the outbox row of the "rate your lesson" e-mail (due at the lesson's end), taken back on cancel */
    reviewMailId: uuid('review_mail_id'),
    /**
     * A request (decision 117): waits for the teacher's answer until this time, holding its slot
     * meanwhile; null once accepted, and for instant lessons. Past it unanswered, the server
     * declines it (cancelled_by 'expired'). Kept on a declined or expired request.
     */
    answerBy: timestamp('answer_by', { withTimezone: true }),
    /** when the teacher accepted the request (null: an instant lesson, or not accepted) */
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    /** who ended it, with cancelled_at: a request 'declined' by the teacher or 'expired' unanswered */
    cancelledBy: text('cancelled_by', { enum: ['learner', 'teacher', 'school', 'declined', 'expired'] }),
    /** the teacher's (or school's) reason, told to the learner */
    cancelReason: text('cancel_reason'),
    /** the .ics SEQUENCE: 0 when booked or requested, +1 with each change e-mailed (decision 118) */
    icsSequence: integer('ics_sequence').notNull().default(0),
    /** the outbox rows of the reminders due 24 h before the start (learner's, teacher's), taken back on cancel */
    reminderMailId: uuid('reminder_mail_id'),
    teacherReminderMailId: uuid('teacher_reminder_mail_id'),
    /** when the lesson sweep counted this ended lesson in its teacher's lessons done (decision 120) */
    countedAt: timestamp('counted_at', { withTimezone: true }),
  },
  (t) => [
    // the teacher's lists, keyset-paged by (start, id) either way (decision 122); also every lookup by teacher
    index('booking_teacher_start_idx').on(t.teacherId, t.start, t.id),
    index('booking_user_idx').on(t.userId),
    // the sweep finds holds by expiry
    index('booking_hold_expires_idx').on(t.holdExpiresAt).where(sql`${t.holdExpiresAt} is not null`),
    // the expiry sweep finds waiting requests by their deadline (decision 117)
    index('booking_answer_by_idx').on(t.answerBy).where(sql`${t.answerBy} is not null and ${t.cancelledAt} is null`),
    // the lesson sweep finds the lessons not counted yet by their start (decision 120)
    index('booking_uncounted_idx')
      .on(t.start)
      .where(sql`${t.countedAt} is null and ${t.cancelledAt} is null and ${t.holdExpiresAt} is null and ${t.start} is not null`),
    /*
     * A slot can be booked once: at most one lesson that is not cancelled per teacher and
     * start. Concurrent bookings of one slot race here, and all but one fail with a unique
     * violation (→ 409 SLOT_TAKEN). Lessons are 60 minutes on the hour of one teacher's
     * zone, so equal starts are the only overlaps. See decision 060.
     */
    uniqueIndex('booking_slot_taken_idx')
      .on(t.teacherId, t.start)
      .where(sql`${t.start} is not null and ${t.cancelledAt} is null`),
  ],
);

/**
 * Bookings per client address and per e-mail address in the current hour (decision 102): one
 * row per key, bumped in the booking's own transaction, so every server on one database
 * counts together. The key is an HMAC of the address, never the address itself.
 */
export const bookingLimit = pgTable('booking_limit', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  count: integer('count').notNull(),
});

export const authSchema = { user, session, account, verification, rateLimit };

// ---------------------------------------------------------------- mail

/**
 * The outbox: a message is inserted in the transaction of whatever caused it and sent
 * afterwards by the mail worker of any server (src/mail/). A message sent through SMTP loses
 * its row; one written as an .eml file keeps a row without the message (written_at, file)
 * until the file expires; a refused one (a permanent SMTP error) stays with failed_at set
 * until it expires too (OUTBOX_RETENTION_DAYS, decision 104).
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey(),
    /** {to, subject, text, html?, attachments?} as enqueued; null once written to its .eml file */
    message: jsonb('message'),
    /** the account whose address `to` is (at enqueue): its mail goes when the account does */
    recipientUserId: text('recipient_user_id').references(() => user.id, { onDelete: 'cascade' }),
    /** when the message was written to DATA_DIR/outbox/`file` (no SMTP_URL) */
    writtenAt: timestamp('written_at', { withTimezone: true }),
    file: text('file'),
    attempts: integer('attempts').notNull().default(0),
    /** when a worker may next claim it; a claim pushes it out by the lease */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.nextAttemptAt).where(sql`${t.failedAt} is null and ${t.writtenAt} is null`),
    index('mail_outbox_recipient_idx').on(t.recipientUserId),
  ],
);

// ---------------------------------------------------------------- staff (issue 24, decision 109)

/** A teacher account's catalogue profile: one account per profile, one profile per account. */
export const teacherAccount = pgTable('teacher_account', {
  teacherId: text('teacher_id')
    .primaryKey()
    .references(() => teacher.id, { onDelete: 'cascade' }),
  userId: text('user_id')
    .notNull()
    .unique()
    .references(() => user.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The staff's audit log, append-only: one row per staff change, written by recordActivity
 * (src/staff/activity.ts) in the change's own transaction. The actor's name and e-mail are
 * kept as they were (the account may change or go).
 */
export const staffActivity = pgTable(
  'staff_activity',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actorUserId: text('actor_user_id'),
    actorName: text('actor_name').notNull(),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [index('staff_activity_subject_idx').on(t.subjectType, t.subjectId, t.id)],
);

/** An e-mail invited to a teacher's profile; the link's token is kept as its SHA-256 (hex). */
export const teacherInvitation = pgTable(
  'teacher_invitation',
  {
    id: uuid('id').primaryKey(),
    teacherId: text('teacher_id')
      .notNull()
      .references(() => teacher.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: text('invited_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('teacher_invitation_teacher_idx').on(t.teacherId)],
);

// ---------------------------------------------------------------- reviews of lessons

/**
 * A learner's review of one lesson taken here (decision 112): one per booking (the unique
 * booking_id), editable for 14 days, answered once by the teacher, hidden by the school with a
 * reason. The teacher's rating and count follow from the visible ones (refreshTeacherRating).
 */
export const lessonReview = pgTable(
  'lesson_review',
  {
    id: uuid('id').primaryKey(),
    bookingId: uuid('booking_id')
      .notNull()
      .unique()
      .references(() => booking.id, { onDelete: 'cascade' }),
    teacherId: text('teacher_id')
      .notNull()
      .references(() => teacher.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => user.id, { onDelete: 'set null' }),
    /** the learner's first name as shown */
    reviewerName: text('reviewer_name').notNull(),
    language: text('language'),
    lessonStart: timestamp('lesson_start', { withTimezone: true }).notNull(),
    rating: smallint('rating').notNull(),
    comment: text('comment').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    reply: text('reply'),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    hiddenAt: timestamp('hidden_at', { withTimezone: true }),
    hiddenReason: text('hidden_reason'),
  },
  (t) => [
    index('lesson_review_teacher_newest_idx')
      .on(t.teacherId, t.createdAt.desc(), t.id)
      .where(sql`${t.hiddenAt} is null`),
    index('lesson_review_teacher_idx').on(t.teacherId),
    index('lesson_review_user_idx').on(t.userId),
  ],
);

// ---------------------------------------------------------------- the school (decisions 110, 111)

/** One row (id = 1) of what the console set; a null column: the environment's default (SCHOOL_*). */
export const schoolSettings = pgTable('school_settings', {
  id: smallint('id').primaryKey(),
  timeZone: text('time_zone'),
  weeklyHours: jsonb('weekly_hours').$type<number[][][]>(),
  contactEmail: text('contact_email'),
  /** learners and teachers may cancel a lesson up to this many hours before it starts (null: 12; decision 117) */
  cancelCutoffHours: smallint('cancel_cutoff_hours'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Days (in the school's time zone, both ends included) when no lesson can be booked. */
export const schoolClosure = pgTable(
  'school_closure',
  {
    id: uuid('id').primaryKey(),
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    endsOn: date('ends_on', { mode: 'string' }).notNull(),
    reason: text('reason').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('school_closure_ends_idx').on(t.endsOn)],
);

/** Each size of each uploaded photo, re-encoded by the server, named `<content hash>-<width>.webp` (decision 110). */
export const teacherPhoto = pgTable('teacher_photo', {
  name: text('name').primaryKey(),
  contentType: text('content_type').notNull(),
  body: bytea('body').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

// ---------------------------------------------------------------- a teacher's own hours (issue 25, decision 116)

/** Days off: calendar days in the teacher's zone, both ends included (one row for a whole holiday). */
export const teacherTimeOff = pgTable(
  'teacher_time_off',
  {
    id: uuid('id').primaryKey(),
    teacherId: text('teacher_id')
      .notNull()
      .references(() => teacher.id, { onDelete: 'cascade' }),
    startsOn: date('starts_on', { mode: 'string' }).notNull(),
    endsOn: date('ends_on', { mode: 'string' }).notNull(),
    reason: text('reason').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('teacher_time_off_teacher_ends_idx').on(t.teacherId, t.endsOn)],
);

/** Hours on one date beyond the weekly ones: whole hours [fromHour, toHour) in the teacher's zone. */
export const teacherExtraHours = pgTable(
  'teacher_extra_hours',
  {
    id: uuid('id').primaryKey(),
    teacherId: text('teacher_id')
      .notNull()
      .references(() => teacher.id, { onDelete: 'cascade' }),
    onDate: date('on_date', { mode: 'string' }).notNull(),
    fromHour: smallint('from_hour').notNull(),
    toHour: smallint('to_hour').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('teacher_extra_hours_teacher_on_idx').on(t.teacherId, t.onDate)],
);

/**
 * A private calendar feed (decision 118): one per teacher or per learner account. Its URL's
 * token is HMAC(secret, nonce), so the owner can be shown it again; requests find the feed by
 * the token's SHA-256. Renewing replaces both: the old URL is then unknown (404).
 */
export const calendarFeed = pgTable(
  'calendar_feed',
  {
    id: uuid('id').primaryKey(),
    teacherId: text('teacher_id').references(() => teacher.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => user.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('calendar_feed_teacher_idx').on(t.teacherId).where(sql`${t.teacherId} is not null`),
    uniqueIndex('calendar_feed_user_idx').on(t.userId).where(sql`${t.userId} is not null`),
  ],
);
