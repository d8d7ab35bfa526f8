-- A search's name matches among the distinct names (decision 095); kept by the catalogue writer.
CREATE TABLE "teacher_name" (
	"name_text" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
INSERT INTO "teacher_name" ("name_text") SELECT DISTINCT "name_text" FROM "teacher_search";--> statement-breakpoint
CREATE INDEX "teacher_name_trgm_idx" ON "teacher_name" USING gin ("name_text" gin_trgm_ops);--> statement-breakpoint
ANALYZE "teacher_name";
