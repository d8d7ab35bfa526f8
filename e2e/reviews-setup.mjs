// Test data for e2e/reviews.spec.ts, written into the run's fresh embedded database by
// start-server.mjs (--setup) after the catalogue import and before the server starts (the
// data directory is the run's own and nothing else has it open): a learner with a lesson that
// ended three hours ago, and a teacher account bound to that lesson's teacher; and a lesson
// with the next teacher (by id) that ended five hours ago, rated without JavaScript. Nothing here is
// reachable from the running server; production never runs it.
import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashPassword } from 'better-auth/crypto';
import { sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';

const REVIEWS_E2E = JSON.parse(readFileSync(new URL('./reviews-accounts.json', import.meta.url), 'utf8'));
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { loadEnv } = await import(path.join(root, 'apps/server/dist/config/env.js'));
const { ensureAuthSecret } = await import(path.join(root, 'apps/server/dist/config/auth-secret.js'));
const { openConfiguredDatabase } = await import(path.join(root, 'apps/server/dist/db/open.js'));

const env = ensureAuthSecret(loadEnv());
const { db, close } = await openConfiguredDatabase(env, 'e2e reviews setup');
try {
  const [teacher, second] = await db.rows(sql`select id, languages from teacher where not hidden order by id limit 2`);
  if (!teacher || !second) throw new Error('no teachers to set up the reviews journeys with');
  const users = [
    { ...REVIEWS_E2E.learner, role: 'learner' },
    { ...REVIEWS_E2E.teacher, role: 'teacher' },
  ];
  const ids = {};
  for (const u of users) {
    const id = randomUUID().replace(/-/g, '');
    ids[u.role] = id;
    await db.rows(sql`insert into "user" (id, name, email, email_verified, role) values (${id}, ${u.name}, ${u.email}, true, ${u.role})`);
    await db.rows(sql`insert into account (id, account_id, provider_id, user_id, password, updated_at)
                      values (${randomUUID()}, ${id}, 'credential', ${id}, ${await hashPassword(u.password)}, now())`);
  }
  await db.rows(sql`insert into teacher_account (teacher_id, user_id) values (${teacher.id}, ${ids.teacher})`);
  // the lesson: an hour long, ended three hours ago (on the hour, as every lesson starts)
  await db.rows(sql`insert into booking (id, teacher_id, user_id, reason, full_name, email, phone, created_at, start, language, token_hash)
                    values (${randomUUID()}, ${teacher.id}, ${ids.learner}, 'Career and business', ${REVIEWS_E2E.learner.name},
                            ${REVIEWS_E2E.learner.email}, '+44 20 7946 0958', now() - interval '2 days',
                            date_trunc('hour', now()) - interval '4 hours', ${teacher.languages[0]},
                            ${createHash('sha256').update(randomUUID()).digest('hex')})`);
  // a second one, with the next teacher, for the journey without JavaScript
  await db.rows(sql`insert into booking (id, teacher_id, user_id, reason, full_name, email, phone, created_at, start, language, token_hash)
                    values (${randomUUID()}, ${second.id}, ${ids.learner}, 'Career and business', ${REVIEWS_E2E.learner.name},
                            ${REVIEWS_E2E.learner.email}, '+44 20 7946 0958', now() - interval '2 days',
                            date_trunc('hour', now()) - interval '6 hours', ${second.languages[0]},
                            ${createHash('sha256').update(randomUUID()).digest('hex')})`);
  process.stdout.write(`reviews e2e: past lessons with ${teacher.id} (its teacher's account too) and ${second.id}\n`);
} finally {
  await close();
}
