-- Room on each page for a row's next version (decision 107's addendum), hand-written (Drizzle
-- does not model storage parameters): a single-teacher edit of a field the search document
-- lacks (price, lessons, rating, levels, country) updates teacher_search's row without
-- changing its indexed columns (the name and the document), and teacher_card's row (its
-- primary key only), so both can be HOT updates — no new entries in the full-text and trigram
-- indexes — when the page has room. Existing pages fill to 100 % until rewritten (VACUUM
-- FULL, or a fresh seed); rows moved by an update land on pages that keep the room.
ALTER TABLE "teacher_search" SET (fillfactor = 80);--> statement-breakpoint
ALTER TABLE "teacher_card" SET (fillfactor = 80);
