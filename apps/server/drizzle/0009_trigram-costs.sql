-- pg_trgm's word-similarity operators cost ~2.5 µs a row (~100x a plain comparison), but
-- are declared at the default cost of 1: the planner then scanned every one of a few thousand
-- distinct names (teacher_name) instead of using their trigram index — 3.6 ms on PostgreSQL,
-- ~20 ms on PGlite, against 0.3 ms (decision 095). Declared at their cost where this role
-- may alter them (their owner, or a superuser: PGlite, a local PostgreSQL); elsewhere the
-- planner keeps its default and a notice says so.
DO $$
BEGIN
  ALTER FUNCTION word_similarity_commutator_op(text, text) COST 100;
  ALTER FUNCTION word_similarity_op(text, text) COST 100;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'pg_trgm''s operator costs left as they are (this role does not own them)';
END
$$;
