import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';
import { booking, user, verification } from '../db/schema.js';
import { enqueueMail, forgetRecipient, removeOutboxFiles } from '../mail/index.js';
import { LessonsChanged, prepareLessonCancellation, type LessonCancellationOptions } from '../modules/booking/account-deletion.js';

/*
 * What the account features (issue 10) do beyond better-auth: the e-mails they send and
 * what deleting an account removes.
 */

interface MailUser {
  name: string;
  email: string;
}

/** A name as a mail's greeting shows it: one line (a name stored before today's rules may hold anything). */
const greeting = (name: string) => name.replace(/\p{Cc}+/gu, ' ').slice(0, 60).trim() || 'there';

/*
 * The texts keep their lines under 76 characters, so a message whose link fits too is sent
 * as plain 7-bit text: the link reads (and copies) as it is from a raw .eml file.
 */

/** The web app's page an e-mailed reset link opens. */
export const RESET_PASSWORD_PATH = '/reset-password';

/** The reset link of the web app's /reset-password page (valid 1 hour, single use: better-auth). */
export function resetPasswordLink(publicOrigin: string, token: string): string {
  return `${publicOrigin}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
}

/**
 * Where a confirmation link lands: /account, which then says the address is confirmed
 * (better-auth adds `&error=…` when the link does not work). The web app asks for the same.
 */
export const EMAIL_CONFIRMED_PATH = '/account?email=confirmed';

/** better-auth's GET verify-email, which marks the e-mail confirmed and goes on to /account. */
export function verifyEmailLink(publicOrigin: string, token: string): string {
  return `${publicOrigin}/api/auth/verify-email?token=${encodeURIComponent(token)}&callbackURL=${encodeURIComponent(EMAIL_CONFIRMED_PATH)}`;
}

export async function enqueueResetPasswordMail(db: Database, to: MailUser, link: string): Promise<void> {
  await enqueueMail(db.orm, {
    to: to.email,
    subject: 'Reset your LearnLingo password',
    text:
      `Hello ${greeting(to.name)},\n\n` +
      'Someone asked to reset the password of your LearnLingo account.\n' +
      'To choose a new one, open this link within an hour:\n\n' +
      `${link}\n\n` +
      'The link works once. If you did not ask for it, ignore this e-mail:\n' +
      'your password stays as it is.\n\n' +
      'LearnLingo\n',
  });
}

/** `npm run admin -- add`: the reset flow's link, as a welcome to a new (or password-less) admin. */
export async function enqueueAdminWelcomeMail(db: Database, to: MailUser, link: string): Promise<void> {
  await enqueueMail(db.orm, {
    to: to.email,
    subject: 'Your LearnLingo admin account',
    text:
      `Hello ${greeting(to.name)},\n\n` +
      'You are now an admin of the school on LearnLingo.\n' +
      'To choose your password, open this link within an hour:\n\n' +
      `${link}\n\n` +
      'The link works once. Then sign in and open Admin in the header.\n' +
      'A link that has expired: ask for a new one with "Forgot password?".\n\n' +
      'LearnLingo\n',
  });
}

export async function enqueueVerifyEmailMail(db: Database, to: MailUser, link: string): Promise<void> {
  await enqueueMail(db.orm, {
    to: to.email,
    subject: 'Confirm your e-mail for LearnLingo',
    text:
      `Hello ${greeting(to.name)},\n\n` +
      'Welcome to LearnLingo! Please confirm that this is your e-mail address\n' +
      'by opening this link:\n\n' +
      `${link}\n\n` +
      'If you did not create an account, ignore this e-mail.\n\n' +
      'LearnLingo\n',
  });
}

export interface AccountDeletionOptions extends LessonCancellationOptions {
  /** DATA_DIR/outbox, where the user's .eml files are */
  outboxDir: string;
  log: Pick<FastifyBaseLogger, 'warn'>;
}

/**
 * Deletes a user in one transaction (decision 104): their lessons that have not started are
 * cancelled (the time is free again; the school gets its copy); every booking of theirs keeps
 * the lesson but loses the name, e-mail, phone, private link and the link to the user; their
 * reset tokens go, and their mail — queued, refused or written to an .eml file; deleting the
 * user row removes their sessions, credentials and favourites (foreign keys ON DELETE
 * CASCADE). The .eml files are removed once that has committed. Runs as better-auth's
 * `beforeDelete`, after it has checked the password; its own deletes then find nothing left.
 */
export async function deleteAccountData(db: Database, userId: string, options: AccountDeletionOptions): Promise<void> {
  const files = await deleteInOneTransaction(db, userId, options);
  // The account is gone either way; a file that cannot be removed now expires with the rest.
  await removeOutboxFiles(options.outboxDir, files).catch((error: unknown) =>
    options.log.warn({ code: (error as NodeJS.ErrnoException).code }, 'could not remove a deleted account\'s .eml files'),
  );
}

/** Tries before a deletion that keeps seeing new lessons of the account's gives up (a 500). */
const DELETION_TRIES = 3;

/** deleteAccountData's transaction; returns the .eml files of the mail it removed. */
async function deleteInOneTransaction(db: Database, userId: string, options: AccountDeletionOptions): Promise<string[]> {
  for (let attempt = 1; ; attempt += 1) {
    const cancelLessons = await prepareLessonCancellation(db, userId, options);
    try {
      return await db.orm.transaction(async (tx) => {
        // A booking of theirs under way holds the row's key share (its foreign key) until it
        // commits, and one that starts now waits for this lock and then finds no user: every
        // booking the statements below see is all there will be. (Without it, one committed
        // between the anonymising update and the user's delete kept name, e-mail and phone
        // with user_id set to null by the foreign key.)
        await tx.select({ id: user.id }).from(user).where(eq(user.id, userId)).for('update');
        await cancelLessons(tx);
        await tx
          .update(booking)
          .set({ fullName: '', email: '', phone: '', tokenHash: null, userId: null })
          .where(eq(booking.userId, userId));
        await tx.delete(verification).where(eq(verification.value, userId));
        const written = await forgetRecipient(tx, userId);
        await tx.delete(user).where(eq(user.id, userId));
        return written;
      });
    } catch (error) {
      if (!(error instanceof LessonsChanged) || attempt === DELETION_TRIES) throw error;
    }
  }
}
