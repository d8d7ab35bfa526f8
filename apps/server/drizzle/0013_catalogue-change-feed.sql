-- Single-teacher writes and the change feed (decision 107), hand-written.
-- A hidden teacher keeps its row (bookings and favourites reference it) but has no list,
-- search or card rows; the list statement without a language reads `teacher` and skips the
-- hidden ones found by this partial index (a handful, read once per statement).
ALTER TABLE "teacher" ADD COLUMN "hidden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "teacher_hidden_idx" ON "teacher" USING btree ("id") WHERE "teacher"."hidden";--> statement-breakpoint
-- One row per single-teacher change, written in the change's own transaction under the
-- catalogue writers' advisory lock, so seq order is commit order. Servers follow it by seq.
CREATE TABLE "catalogue_change" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"teacher_id" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
-- The greatest seq trimmed from the feed: a server that has applied less than it rebuilds.
ALTER TABLE "catalogue_version" ADD COLUMN "feed_trimmed" bigint DEFAULT 0 NOT NULL;
