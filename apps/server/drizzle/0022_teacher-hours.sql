-- A teacher's own booking rules, time off and extra hours (issue 25, decision 116), hand-written.
-- Minimum notice (hours) and how far ahead learners may book (days), per teacher; a teacher
-- without a row keeps the school's hours and these defaults.
ALTER TABLE "teacher_availability" ADD COLUMN "notice_hours" smallint DEFAULT 12 NOT NULL;--> statement-breakpoint
ALTER TABLE "teacher_availability" ADD COLUMN "horizon_days" smallint DEFAULT 14 NOT NULL;--> statement-breakpoint
ALTER TABLE "teacher_availability" ADD CONSTRAINT "teacher_availability_rules_check" CHECK ("notice_hours" between 0 and 336 and "horizon_days" between 1 and 365);--> statement-breakpoint
-- Days off: calendar days in the teacher's zone, both ends included (one row for a holiday).
CREATE TABLE "teacher_time_off" (
	"id" uuid PRIMARY KEY NOT NULL,
	"teacher_id" text NOT NULL REFERENCES "teacher"("id") ON DELETE cascade,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "teacher_time_off_order" CHECK ("ends_on" >= "starts_on")
);--> statement-breakpoint
CREATE INDEX "teacher_time_off_teacher_ends_idx" ON "teacher_time_off" USING btree ("teacher_id","ends_on");--> statement-breakpoint
-- Hours on one date beyond the weekly ones: whole hours [from_hour, to_hour) in the teacher's zone.
CREATE TABLE "teacher_extra_hours" (
	"id" uuid PRIMARY KEY NOT NULL,
	"teacher_id" text NOT NULL REFERENCES "teacher"("id") ON DELETE cascade,
	"on_date" date NOT NULL,
	"from_hour" smallint NOT NULL,
	"to_hour" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "teacher_extra_hours_range" CHECK ("from_hour" >= 0 and "from_hour" < "to_hour" and "to_hour" <= 24)
);--> statement-breakpoint
CREATE INDEX "teacher_extra_hours_teacher_on_idx" ON "teacher_extra_hours" USING btree ("teacher_id","on_date");
