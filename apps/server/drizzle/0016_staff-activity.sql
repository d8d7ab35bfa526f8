-- The staff's audit log and the teachers' invitations (issue 24, decision 109), hand-written.
-- staff_activity is append-only: written by recordActivity (src/staff/activity.ts) inside the
-- change's own transaction; the actor's name and e-mail are a snapshot (the account may go).
CREATE TABLE "staff_activity" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" text,
	"actor_name" text NOT NULL,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb
);--> statement-breakpoint
CREATE INDEX "staff_activity_subject_idx" ON "staff_activity" USING btree ("subject_type", "subject_id", "id");--> statement-breakpoint
-- An invitation of an e-mail address to a teacher's profile: the link's token is kept as its
-- SHA-256 only; used once (used_at), revocable (revoked_at), expiring (expires_at).
CREATE TABLE "teacher_invitation" (
	"id" uuid PRIMARY KEY NOT NULL,
	"teacher_id" text NOT NULL REFERENCES "teacher"("id") ON DELETE CASCADE,
	"email" text NOT NULL,
	"token_hash" text NOT NULL UNIQUE,
	"invited_by" text REFERENCES "user"("id") ON DELETE SET NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "teacher_invitation_teacher_idx" ON "teacher_invitation" USING btree ("teacher_id");
