CREATE TABLE "teacher_language" (
	"teacher_id" text NOT NULL,
	"language" text NOT NULL,
	"rating" double precision NOT NULL,
	"price_per_hour" double precision NOT NULL,
	"levels" text[] NOT NULL,
	CONSTRAINT "teacher_language_teacher_id_language_pk" PRIMARY KEY("teacher_id","language")
);
--> statement-breakpoint
ALTER TABLE "teacher_language" ADD CONSTRAINT "teacher_language_teacher_id_teacher_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teacher"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Backfill: every existing teacher's languages (the catalogue writer keeps them from now on).
INSERT INTO "teacher_language" ("teacher_id", "language", "rating", "price_per_hour", "levels")
SELECT DISTINCT "teacher"."id", l.language, "teacher"."rating", "teacher"."price_per_hour", "teacher"."levels"
FROM "teacher", unnest("teacher"."languages") AS l(language);--> statement-breakpoint
CREATE INDEX "teacher_language_list_idx" ON "teacher_language" USING btree ("language","rating" DESC NULLS FIRST,"teacher_id" DESC NULLS FIRST,"price_per_hour","levels");--> statement-breakpoint
-- Statistics now, so a generic plan built before the next bulk load still picks the ordered index-only scan.
ANALYZE "teacher_language";
