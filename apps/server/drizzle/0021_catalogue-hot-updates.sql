-- Room on each page for a row's next version (decision 107's addendum), hand-written (Drizzle
-- does not model storage parameters): a single-teacher edit of a field the search document
-- lacks (price, lessons, rating, levels, country) updates teacher_search's row without
-- changing its indexed columns (the name and the document), and teacher_card's row (its
-- primary key only), so both can be HOT updates — no new entries in the full-text and trigram
-- indexes — when the page has room. Existing pages fill to 100 % until rewritten (VACUUM
-- FULL, or a fresh seed); rows moved by an update land on pages that keep the room.
ALTER TABLE "teacher_search" SET (fillfactor = 80);--> statement-breakpoint
ALTER TABLE "teacher_card" SET (fillfactor = 80);
--> statement-breakpoint
-- How many search documents have each word (decision 107's addendum): a single-teacher write
-- moves the counts of the words its document gained and lost, and deletes a word at 0 — it
-- no longer checks each word against the full-text index (a bitmap of up to every teacher
-- per common word: ~10 ms each at 100,000 teachers).
ALTER TABLE "teacher_word" ADD COLUMN "documents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "teacher_word" w SET "documents" = c.n
  FROM (SELECT l.word, count(*)::int AS n FROM "teacher_search" s, unnest(tsvector_to_array(s."document")) AS l(word)
        WHERE l.word ~ '^[[:alpha:]]{3,}$' GROUP BY l.word) c
  WHERE c.word = w."word";--> statement-breakpoint
DELETE FROM "teacher_word" WHERE "documents" = 0;
