import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from './fixtures';

/** The main e2e server's DATA_DIR (playwright.config.ts): without SMTP_URL its mail is .eml files here. */
const outboxDir = path.join(path.dirname(fileURLToPath(import.meta.url)), `.data/main-${process.env.E2E_PORT}`, 'outbox');

/** Quoted-printable soft breaks and escapes undone. */
const decodeQuotedPrintable = (text: string) =>
  text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * The quoted-printable parts of a message (or the message itself) decoded, and only those: a
 * plain 7-bit body keeps its `=` (a link's `?token=AB…` is not the byte 0xAB).
 */
const decodeQuotedPrintableParts = (text: string) =>
  text.replace(
    /(Content-Transfer-Encoding: quoted-printable\r?\n(?:[^\r\n]+\r?\n)*\r?\n)([\s\S]*?)(?=\r?\n--[^\s]{8,}|$)/gi,
    (_m, head: string, body: string) => head + decodeQuotedPrintable(body),
  );

/** An .eml's text: headers unfolded and their RFC 2047 words (`=?UTF-8?Q?…?=`: a subject with a dash or an accent) decoded, quoted-printable parts undone. */
function readMail(file: string): string {
  const eml = readFileSync(file, 'utf8');
  const end = eml.search(/\r?\n\r?\n/);
  const head = end === -1 ? eml : eml.slice(0, end);
  const word = /=\?UTF-8\?([QB])\?([^?]*)\?=/gi;
  const decoded = head
    .replace(/\r?\n[ \t]+/g, ' ')
    .replace(/(=\?UTF-8\?[QB]\?[^?]*\?=)\s+(?==\?UTF-8\?)/gi, '$1')
    .replace(word, (_m, kind: string, text: string) =>
      (kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1')
      ).toString('utf8'),
    );
  return end === -1 ? decoded : decodeQuotedPrintableParts(decoded + eml.slice(end));
}

/** The outbox's .eml files, oldest first ([] before the first mail makes the directory). */
function emlFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.eml'))
      .sort()
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

/**
 * Waits (the worker writes a mail within seconds when idle; CI's two workers keep the server
 * busy, and 15 s was once not enough) for the newest .eml for which `pick` answers something,
 * and returns that answer; a failed wait lists the To and Subject of the newest e-mails (a wrong
 * address, a wrong subject or no mail at all).
 */
async function waitForMail(email: string, dir: string, pick: (text: string) => string): Promise<string> {
  let found = '';
  await expect
    .poll(
      () => {
        for (const file of emlFiles(dir).reverse()) {
          found = pick(readMail(file));
          if (found) return found;
        }
        return '';
      },
      { timeout: 45_000, message: `an e-mail to ${email} in ${dir}` },
    )
    .not.toBe('')
    .catch((error: unknown) => {
      const heads = emlFiles(dir)
        .slice(-20)
        .map((file) => readMail(file).match(/^(To|Subject): .*$/gim)?.join(' | ') ?? path.basename(file));
      throw new Error(`${String(error)}\nThe outbox's newest e-mails:\n${heads.join('\n') || '(none)'}`);
    });
  return found;
}

/** (`dir`: another server's DATA_DIR/outbox.) The text of the newest .eml whose `To:` header is `email` and whose subject matches `subject` (headers decoded, body quoted-printable undone). */
export function mailTo(email: string, subject: RegExp, dir = outboxDir): Promise<string> {
  const to = new RegExp(`^To: (.*<)?${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}>?\\r?$`, 'im');
  return waitForMail(email, dir, (text) => (to.test(text) && subject.test(text) ? text : ''));
}

/** (`dir`: another server's DATA_DIR/outbox.) The first link matching `link` in the newest .eml to `email` whose subject matches `subject`. */
export function linkFromOutbox(email: string, subject: RegExp, link: RegExp, dir = outboxDir): Promise<string> {
  return waitForMail(email, dir, (text) => (text.includes(email) && subject.test(text) ? (link.exec(text)?.[0] ?? '') : ''));
}
