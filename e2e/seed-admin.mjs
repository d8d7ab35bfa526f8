// The browser tests' school admin (admin-console.spec.ts): created in the fresh database before
// the server starts, as `npm run admin -- add` will for a school (an account with role admin),
// with the password the spec signs in with. E2E_ADMIN="email password".
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { hashPassword } from 'better-auth/crypto';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = (file) => import(pathToFileURL(path.join(root, 'apps/server/dist', file)).href);
const [email, password] = (process.env.E2E_ADMIN ?? '').split(' ');
if (!email || !password) throw new Error('E2E_ADMIN must be "email password"');

const { loadEnv } = await dist('config/env.js');
const { openConfiguredDatabase } = await dist('db/open.js');
const { user, account } = await dist('db/schema.js');
const { db, close } = await openConfiguredDatabase(loadEnv(), 'e2e admin');
try {
  const id = randomUUID().replaceAll('-', '');
  await db.orm.insert(user).values({ id, name: 'School Admin', email, emailVerified: true, role: 'admin' });
  await db.orm.insert(account).values({ id: randomUUID(), accountId: id, providerId: 'credential', userId: id, password: await hashPassword(password) });
} finally {
  await close();
}
