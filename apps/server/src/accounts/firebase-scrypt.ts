import { createCipheriv, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Firebase Authentication's modified scrypt (github.com/firebase/scrypt): the key is
 * scrypt(password, salt ‖ salt separator, N = 2^mem_cost, r = rounds, p = 1, 32 bytes), and the
 * stored hash is the project's signer key encrypted with it (AES-256-CTR, zero IV).
 */
export interface FirebaseHashConfig {
  /** base64 */
  signerKey: string;
  /** base64 */
  saltSeparator: string;
  rounds: number;
  memCost: number;
}

/** Firebase projects use rounds 8 and mem_cost 14; the caps leave room and bound the memory (below). */
export const ROUNDS_MAX = 32;
export const MEM_COST_MAX = 17;
/** scrypt's memory for these parameters, which node:crypto must be allowed */
const scryptMemory = (config: Pick<FirebaseHashConfig, 'rounds' | 'memCost'>) => 128 * config.rounds * 2 ** config.memCost;
export const SCRYPT_MEMORY_MAX = 64 * 1024 * 1024;

export function firebaseParamsProblem(config: Pick<FirebaseHashConfig, 'rounds' | 'memCost'>): string | null {
  if (!Number.isInteger(config.rounds) || config.rounds < 1 || config.rounds > ROUNDS_MAX) return `rounds must be an integer from 1 to ${ROUNDS_MAX}`;
  if (!Number.isInteger(config.memCost) || config.memCost < 1 || config.memCost > MEM_COST_MAX) return `mem_cost must be an integer from 1 to ${MEM_COST_MAX}`;
  if (scryptMemory(config) > SCRYPT_MEMORY_MAX) return 'rounds and mem_cost together need more than 64 MiB per password check';
  return null;
}

function deriveKey(password: string, salt: Buffer, config: FirebaseHashConfig): Promise<Buffer> {
  const n = 2 ** config.memCost;
  return new Promise((resolve, reject) => {
    scrypt(
      Buffer.from(password, 'utf8'),
      Buffer.concat([salt, Buffer.from(config.saltSeparator, 'base64')]),
      32,
      { N: n, r: config.rounds, p: 1, maxmem: scryptMemory(config) + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** The base64 password hash Firebase stores for `password` with this user's base64 `salt`. */
export async function firebaseScryptHash(password: string, salt: string, config: FirebaseHashConfig): Promise<string> {
  const key = await deriveKey(password, Buffer.from(salt, 'base64'), config);
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16, 0));
  return Buffer.concat([cipher.update(Buffer.from(config.signerKey, 'base64')), cipher.final()]).toString('base64');
}

export async function verifyFirebaseScrypt(password: string, salt: string, hash: string, config: FirebaseHashConfig): Promise<boolean> {
  const expected = Buffer.from(hash, 'base64');
  const actual = Buffer.from(await firebaseScryptHash(password, salt, config), 'base64');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

// ---------------------------------------------------------------- kept in account.password

/*
 * An imported password is kept in better-auth's `account.password` column, self-contained:
 *   $firebase-scrypt$<rounds>$<mem_cost>$<salt separator>$<signer key>$<salt>$<hash>
 * (base64 never contains `$`). better-auth's password.verify recognises it (auth-password.ts),
 * and the first successful sign-in replaces it with the server's own scheme.
 */
const PREFIX = '$firebase-scrypt$';
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function isFirebaseHash(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

export function encodeFirebaseHash(config: FirebaseHashConfig, salt: string, hash: string): string {
  return `${PREFIX}${config.rounds}$${config.memCost}$${config.saltSeparator}$${config.signerKey}$${salt}$${hash}`;
}

export function decodeFirebaseHash(stored: string): { config: FirebaseHashConfig; salt: string; hash: string } | null {
  if (!isFirebaseHash(stored) || stored.length > 2000) return null;
  const parts = stored.slice(PREFIX.length).split('$');
  if (parts.length !== 6) return null;
  const [rounds, memCost, saltSeparator, signerKey, salt, hash] = parts as [string, string, string, string, string, string];
  const config = { rounds: Number(rounds), memCost: Number(memCost), saltSeparator, signerKey };
  if (!/^\d{1,2}$/.test(rounds) || !/^\d{1,2}$/.test(memCost) || firebaseParamsProblem(config)) return null;
  if (![saltSeparator, signerKey, salt, hash].every((part) => BASE64.test(part))) return null;
  return { config, salt, hash };
}
