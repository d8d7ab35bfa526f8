-- E-mail that reads right for each person, and private calendar feeds (issue 25, decision 118), hand-written.
-- The .ics SEQUENCE of a lesson: 0 when it is booked (or requested), one more with each change
-- sent (accepted, declined, expired, cancelled), so a calendar updates its event of the same UID.
ALTER TABLE "booking" ADD COLUMN "ics_sequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The two reminders (learner's, teacher's), outbox rows due 24 h before the start, taken back on cancel.
ALTER TABLE "booking" ADD COLUMN "reminder_mail_id" uuid;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "teacher_reminder_mail_id" uuid;--> statement-breakpoint
-- A private calendar feed: one per teacher or per learner account. The URL's token is an HMAC of
-- `nonce` under the server's secret (so it can be shown again); only its SHA-256 is looked up.
-- Renewing replaces the nonce and the hash: the old URL answers 404 at once.
CREATE TABLE "calendar_feed" (
	"id" uuid PRIMARY KEY NOT NULL,
	"teacher_id" text REFERENCES "teacher"("id") ON DELETE cascade,
	"user_id" text REFERENCES "user"("id") ON DELETE cascade,
	"nonce" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_feed_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "calendar_feed_one_owner" CHECK (("teacher_id" is null) <> ("user_id" is null))
);--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_feed_teacher_idx" ON "calendar_feed" USING btree ("teacher_id") WHERE "teacher_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_feed_user_idx" ON "calendar_feed" USING btree ("user_id") WHERE "user_id" is not null;
