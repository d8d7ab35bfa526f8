import { createAuthMiddleware } from 'better-auth/api';
import { hashPassword, verifyPassword } from 'better-auth/crypto';
import { decodeFirebaseHash, isFirebaseHash, verifyFirebaseScrypt } from '../accounts/firebase-scrypt.js';

/*
 * better-auth's password options: its own scheme for every new hash, and the Firebase hashes
 * of imported users (npm run import-users) understood until their first sign-in replaces them.
 */

export const passwordOptions = {
  hash: (password: string) => hashPassword(password),
  verify: async ({ hash, password }: { hash: string; password: string }): Promise<boolean> => {
    if (!isFirebaseHash(hash)) return verifyPassword({ hash, password });
    const stored = decodeFirebaseHash(hash);
    return stored !== null && verifyFirebaseScrypt(password, stored.salt, stored.hash, stored.config);
  },
};

/**
 * After a successful e-mail sign-in, a password still kept as a Firebase hash is rehashed with
 * the server's own scheme (the sign-in has just proved the password it was given).
 */
export const rehashAfterSignIn = createAuthMiddleware(async (ctx) => {
  if (ctx.path !== '/sign-in/email') return;
  const userId = ctx.context.newSession?.user.id;
  const password = (ctx.body as { password?: unknown } | undefined)?.password;
  if (!userId || typeof password !== 'string') return;
  const account = await ctx.context.internalAdapter.findCredentialAccount(userId);
  if (!account?.password || !isFirebaseHash(account.password)) return;
  await ctx.context.internalAdapter.updatePassword(userId, await ctx.context.password.hash(password));
});
