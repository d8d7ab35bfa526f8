CREATE TABLE "teacher_card" (
	"teacher_id" text PRIMARY KEY NOT NULL,
	"json" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "teacher_card" ADD CONSTRAINT "teacher_card_teacher_id_teacher_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."teacher"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Backfill: every existing teacher's card (the catalogue writer keeps them from now on).
INSERT INTO "teacher_card" ("teacher_id", "json")
SELECT "teacher"."id", (select row_to_json(t)::text from (select
    "teacher"."id", "teacher"."name", "teacher"."surname", "teacher"."languages", "teacher"."levels",
    "teacher"."rating",
    coalesce((
      select json_agg((select r from (select rv.reviewer_name, rv.reviewer_rating, rv.comment) r) order by rv.position)
      from "review" rv where rv.teacher_id = "teacher"."id"), '[]'::json) as reviews,
    "teacher"."price_per_hour", "teacher"."lessons_done", "teacher"."avatar_url", "teacher"."lesson_info",
    "teacher"."conditions", "teacher"."experience") t)
FROM "teacher";
