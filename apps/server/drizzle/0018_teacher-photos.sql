-- Teachers' photos uploaded in the console (decision 110), hand-written: each size of each
-- photo as re-encoded by the server, named by the upload's content hash and the width, so
-- its URL never changes meaning and every server on the database serves it.
CREATE TABLE "teacher_photo" (
	"name" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"body" bytea NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
