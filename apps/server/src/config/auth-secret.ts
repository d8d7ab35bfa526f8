import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Env } from './env.js';
import { ensurePrivateDir } from './private-files.js';

const FILE_NAME = 'auth-secret';

/**
 * AUTH_SECRET when set; otherwise a secret generated once and kept in DATA_DIR/auth-secret
 * (mode 0600), so a fresh embedded start needs no setup and sessions survive restarts.
 */
export function ensureAuthSecret(env: Env): Env & { authSecret: string } {
  if (env.authSecret) return { ...env, authSecret: env.authSecret };
  ensurePrivateDir(env.dataDir);
  const file = path.join(env.dataDir, FILE_NAME);
  try {
    const secret = randomBytes(32).toString('hex');
    fs.writeFileSync(file, `${secret}\n`, { flag: 'wx', mode: 0o600 });
    return { ...env, authSecret: secret };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 32) {
    throw new Error(`${file} holds an unusable secret (under 32 characters); delete it or set AUTH_SECRET.`);
  }
  return { ...env, authSecret: secret };
}
