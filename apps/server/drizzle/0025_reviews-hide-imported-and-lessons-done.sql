-- Reviews from real lessons, the rest (issue 26, decisions 112 and 120), hand-written.
-- Lessons done follows lessons that end: the sweep (modules/reviews/lesson-sweep.ts) marks each
-- lesson it has counted in its teacher's lessons done, in the transaction that recounts that
-- teacher; the partial index holds only the lessons not counted yet (upcoming, or just ended).
ALTER TABLE "booking" ADD COLUMN "counted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "booking_uncounted_idx" ON "booking" USING btree ("start") WHERE "booking"."counted_at" is null and "booking"."cancelled_at" is null and "booking"."hold_expires_at" is null and "booking"."start" is not null;--> statement-breakpoint
-- The school can hide an imported review too, with a reason: it leaves the card, the page,
-- the rating and the count (a re-import of the teacher brings the source's reviews back).
ALTER TABLE "review" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "review" ADD COLUMN "hidden_reason" text;
