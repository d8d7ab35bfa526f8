-- Teacher status and the school's settings (decisions 110, 111), hand-written.
-- A teacher is draft, published or hidden; `hidden` stays the projection's flag (decision 107:
-- no list, search, card or name rows) and is true exactly when the status is not published.
ALTER TABLE "teacher" ADD COLUMN "status" text DEFAULT 'published' NOT NULL;--> statement-breakpoint
UPDATE "teacher" SET "status" = 'hidden' WHERE "hidden";--> statement-breakpoint
ALTER TABLE "teacher" ADD CONSTRAINT "teacher_status_check" CHECK ("status" in ('draft', 'published', 'hidden') and "hidden" = ("status" <> 'published'));--> statement-breakpoint
-- why the school hid the teacher (kept until the teacher is published again)
ALTER TABLE "teacher" ADD COLUMN "status_reason" text;--> statement-breakpoint
-- when the teacher was first public: a page that once was answers 410 when hidden, a draft's 404
ALTER TABLE "teacher" ADD COLUMN "published_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
UPDATE "teacher" SET "published_at" = "created_at";--> statement-breakpoint
-- the last change made in the console: an import over it says so (decision 111)
ALTER TABLE "teacher" ADD COLUMN "console_edited_at" timestamp with time zone;--> statement-breakpoint
-- One row (id = 1): what the console set; a null column means the environment's default
-- (SCHOOL_TIME_ZONE, SCHOOL_HOURS, SCHOOL_EMAIL), so a fresh database follows the environment.
CREATE TABLE "school_settings" (
	"id" smallint PRIMARY KEY NOT NULL,
	"time_zone" text,
	"weekly_hours" jsonb,
	"contact_email" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "school_settings_one_row" CHECK ("id" = 1)
);--> statement-breakpoint
-- Days (in the school's time zone, both ends included) when no lesson can be booked.
CREATE TABLE "school_closure" (
	"id" uuid PRIMARY KEY NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "school_closure_order" CHECK ("ends_on" >= "starts_on")
);--> statement-breakpoint
CREATE INDEX "school_closure_ends_idx" ON "school_closure" USING btree ("ends_on");
