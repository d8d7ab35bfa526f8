-- Roles (issue 24, decision 109), hand-written. better-auth's admin plugin keeps the role and
-- the ban on the user and who impersonates on the session. Every account is a learner until an
-- admin (or `npm run admin`) says otherwise; the check keeps any other value out.
ALTER TABLE "user" ADD COLUMN "role" text DEFAULT 'learner' NOT NULL;--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_role_check" CHECK ("role" IN ('learner', 'teacher', 'admin'));--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "banned" boolean DEFAULT false;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "ban_reason" text;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "ban_expires" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "session" ADD COLUMN "impersonated_by" text;--> statement-breakpoint
-- A teacher account's catalogue profile: one account per profile (the key), one profile per
-- account (the unique user). Deleting either ends the binding, never the other.
CREATE TABLE "teacher_account" (
	"teacher_id" text PRIMARY KEY NOT NULL REFERENCES "teacher"("id") ON DELETE CASCADE,
	"user_id" text NOT NULL UNIQUE REFERENCES "user"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
