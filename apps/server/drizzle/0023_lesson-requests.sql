-- Instant or on request, teacher cancels, the school's cancellation cut-off (issue 25, decision 117), hand-written.
-- Each teacher chooses: lessons are confirmed at once ('instant', today's behaviour) or each booking
-- is a request the teacher answers ('request').
ALTER TABLE "teacher_availability" ADD COLUMN "booking_mode" text DEFAULT 'instant' NOT NULL;--> statement-breakpoint
ALTER TABLE "teacher_availability" ADD CONSTRAINT "teacher_availability_booking_mode_check" CHECK ("booking_mode" in ('instant', 'request'));--> statement-breakpoint
-- A request waits for the teacher's answer until answer_by (then the server declines it); it holds its
-- slot meanwhile through the existing one-live-booking-per-slot index (cancelled_at is null).
ALTER TABLE "booking" ADD COLUMN "answer_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "accepted_at" timestamp with time zone;--> statement-breakpoint
-- Who ended it: the learner, the teacher, the school; a request the teacher declined; one nobody answered.
ALTER TABLE "booking" ADD COLUMN "cancelled_by" text;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_cancelled_by_check" CHECK ("cancelled_by" in ('learner', 'teacher', 'school', 'declined', 'expired'));--> statement-breakpoint
-- the expiry sweep finds waiting requests by their deadline
CREATE INDEX "booking_answer_by_idx" ON "booking" USING btree ("answer_by") WHERE "booking"."answer_by" is not null and "booking"."cancelled_at" is null;--> statement-breakpoint
-- Learners and teachers alike may cancel a lesson up to this many hours before it starts (null: 12).
ALTER TABLE "school_settings" ADD COLUMN "cancel_cutoff_hours" smallint;--> statement-breakpoint
ALTER TABLE "school_settings" ADD CONSTRAINT "school_settings_cancel_cutoff_check" CHECK ("cancel_cutoff_hours" between 0 and 168);
