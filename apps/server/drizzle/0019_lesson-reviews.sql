-- Reviews from real lessons (issue 26, decision 112), hand-written.
-- A lesson's no-shows: the teacher marks the learner absent, the learner reports the
-- teacher absent, each within 48 h of the lesson's end (then no review is asked). The
-- "rate your lesson" e-mail is an outbox row due at the lesson's end, kept here so that
-- a cancel (or a no-show marked before it went) takes it back.
ALTER TABLE "booking" ADD COLUMN "learner_absent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "teacher_absent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "review_mail_id" uuid;--> statement-breakpoint
-- The teacher's figures from its visible reviews (refreshTeacherRating): null until the
-- first review of a lesson changed them (then the import's figures stand).
-- rating_imported keeps the import's rating for a teacher left with no visible review.
ALTER TABLE "teacher" ADD COLUMN "review_count" integer;--> statement-breakpoint
ALTER TABLE "teacher" ADD COLUMN "rating_imported" double precision;--> statement-breakpoint
ALTER TABLE "teacher" ADD COLUMN "lessons_imported" integer;--> statement-breakpoint
-- One review per lesson (the unique booking_id: concurrent posts leave one row).
CREATE TABLE "lesson_review" (
	"id" uuid PRIMARY KEY NOT NULL,
	"booking_id" uuid NOT NULL,
	"teacher_id" text NOT NULL,
	"user_id" text,
	"reviewer_name" text NOT NULL,
	"language" text,
	"lesson_start" timestamp with time zone NOT NULL,
	"rating" smallint NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"reply" text,
	"replied_at" timestamp with time zone,
	"hidden_at" timestamp with time zone,
	"hidden_reason" text,
	CONSTRAINT "lesson_review_booking_id_unique" UNIQUE("booking_id"),
	CONSTRAINT "lesson_review_rating_check" CHECK ("rating" between 1 and 5)
);--> statement-breakpoint
ALTER TABLE "lesson_review" ADD CONSTRAINT "lesson_review_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_review" ADD CONSTRAINT "lesson_review_teacher_id_teacher_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teacher"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lesson_review" ADD CONSTRAINT "lesson_review_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- a teacher's visible reviews, newest first (the card's first ones, the page's default order)
CREATE INDEX "lesson_review_teacher_newest_idx" ON "lesson_review" USING btree ("teacher_id","created_at" DESC,"id") WHERE "lesson_review"."hidden_at" is null;--> statement-breakpoint
-- every review about a teacher, hidden too (/teach)
CREATE INDEX "lesson_review_teacher_idx" ON "lesson_review" USING btree ("teacher_id");--> statement-breakpoint
CREATE INDEX "lesson_review_user_idx" ON "lesson_review" USING btree ("user_id");
