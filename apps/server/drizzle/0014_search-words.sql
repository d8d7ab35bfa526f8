-- Typo-tolerant search words (decision 108), hand-written: the distinct words of the search
-- documents (teacher_search.document's lexemes, letters only, 3 or more), kept by the catalogue writer
-- like teacher_name; a search word no document has is widened to the words like it here.
CREATE TABLE "teacher_word" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
INSERT INTO "teacher_word" ("word")
  SELECT DISTINCT l.word FROM "teacher_search" s, unnest(tsvector_to_array(s."document")) AS l(word)
  WHERE l.word ~ '^[[:alpha:]]{3,}$';--> statement-breakpoint
CREATE INDEX "teacher_word_trgm_idx" ON "teacher_word" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
ANALYZE "teacher_word";
