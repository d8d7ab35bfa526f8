-- The teacher's Lessons (issue 25, decision 122), hand-written: their lists are keyset-paged by
-- (start, id) for one teacher — upcoming soonest first, past newest first (the same index read
-- backwards). It covers every query by teacher_id alone too, so it replaces booking_teacher_idx.
CREATE INDEX "booking_teacher_start_idx" ON "booking" USING btree ("teacher_id","start","id");--> statement-breakpoint
DROP INDEX "booking_teacher_idx";
