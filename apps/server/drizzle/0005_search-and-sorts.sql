-- Search (decision 040): trigram similarity and unaccent. Both are trusted extensions
-- (PostgreSQL 13+: a database owner may create them); PGlite loads them from its contrib.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
CREATE TABLE "teacher_search" (
	"teacher_id" text PRIMARY KEY NOT NULL,
	"name_text" text NOT NULL,
	"document" "tsvector" NOT NULL,
	"languages" text[] NOT NULL,
	"levels" text[] NOT NULL,
	"rating" double precision NOT NULL,
	"price_per_hour" double precision NOT NULL,
	"lessons_done" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "teacher_language" ADD COLUMN "lessons_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "teacher_language" SET "lessons_done" = "teacher"."lessons_done" FROM "teacher" WHERE "teacher"."id" = "teacher_language"."teacher_id";--> statement-breakpoint
ALTER TABLE "teacher_search" ADD CONSTRAINT "teacher_search_teacher_id_teacher_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teacher"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Backfill: the same rows as the catalogue writer's (catalogue-writer.ts, SEARCH_ROW).
INSERT INTO "teacher_search" ("teacher_id", "name_text", "document", "languages", "levels", "rating", "price_per_hour", "lessons_done")
SELECT t.id, lower(unaccent(t.name || ' ' || t.surname)),
  to_tsvector('simple', lower(unaccent(concat_ws(' ', t.name, t.surname, array_to_string(t.languages, ' '), t.lesson_info, array_to_string(t.conditions, ' '), t.experience)))),
  t.languages, t.levels, t.rating, t.price_per_hour, t.lessons_done
FROM "teacher" t;--> statement-breakpoint
CREATE INDEX "teacher_search_name_trgm_idx" ON "teacher_search" USING gin ("name_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "teacher_search_document_idx" ON "teacher_search" USING gin ("document");--> statement-breakpoint
CREATE INDEX "teacher_price_order_idx" ON "teacher" USING btree ("price_per_hour","id","languages","levels");--> statement-breakpoint
CREATE INDEX "teacher_lessons_order_idx" ON "teacher" USING btree ("lessons_done" DESC NULLS FIRST,"id" DESC NULLS FIRST,"price_per_hour","languages","levels");--> statement-breakpoint
CREATE INDEX "teacher_language_price_idx" ON "teacher_language" USING btree ("language","price_per_hour","teacher_id","levels");--> statement-breakpoint
CREATE INDEX "teacher_language_lessons_idx" ON "teacher_language" USING btree ("language","lessons_done" DESC NULLS FIRST,"teacher_id" DESC NULLS FIRST,"price_per_hour","levels");--> statement-breakpoint
ANALYZE "teacher_language";--> statement-breakpoint
ANALYZE "teacher_search";
