-- The teacher's country (issue 23): where they live, a filter (tag) like language and level.
-- Nullable: a teacher may have none (the original's export has no such field).
ALTER TABLE "teacher" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "teacher_language" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "teacher_search" ADD COLUMN "country" text;--> statement-breakpoint
-- The list's covering indexes carry every filter column (a filtered page stays an index-only scan).
DROP INDEX "teacher_list_order_idx";--> statement-breakpoint
DROP INDEX "teacher_price_order_idx";--> statement-breakpoint
DROP INDEX "teacher_lessons_order_idx";--> statement-breakpoint
DROP INDEX "teacher_language_list_idx";--> statement-breakpoint
DROP INDEX "teacher_language_price_idx";--> statement-breakpoint
DROP INDEX "teacher_language_lessons_idx";--> statement-breakpoint
CREATE INDEX "teacher_list_order_idx" ON "teacher" USING btree ("rating" DESC NULLS FIRST,"id" DESC NULLS FIRST,"price_per_hour","languages","levels","country");--> statement-breakpoint
CREATE INDEX "teacher_price_order_idx" ON "teacher" USING btree ("price_per_hour","id","languages","levels","country");--> statement-breakpoint
CREATE INDEX "teacher_lessons_order_idx" ON "teacher" USING btree ("lessons_done" DESC NULLS FIRST,"id" DESC NULLS FIRST,"price_per_hour","languages","levels","country");--> statement-breakpoint
CREATE INDEX "teacher_language_list_idx" ON "teacher_language" USING btree ("language","rating" DESC NULLS FIRST,"teacher_id" DESC NULLS FIRST,"price_per_hour","levels","country");--> statement-breakpoint
CREATE INDEX "teacher_language_price_idx" ON "teacher_language" USING btree ("language","price_per_hour","teacher_id","levels","country");--> statement-breakpoint
CREATE INDEX "teacher_language_lessons_idx" ON "teacher_language" USING btree ("language","lessons_done" DESC NULLS FIRST,"teacher_id" DESC NULLS FIRST,"price_per_hour","levels","country");--> statement-breakpoint
-- Every card gains the field, last as in teacherSchema (null: no teacher has a country yet).
UPDATE "teacher_card" SET "json" = left("json", -1) || ',"country":null}';--> statement-breakpoint
ANALYZE "teacher";--> statement-breakpoint
ANALYZE "teacher_language";
