import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from './fixtures';

/** The main e2e server's DATA_DIR (playwright.config.ts): without SMTP_URL its mail is .eml files here. */
const outboxDir = path.join(path.dirname(fileURLToPath(import.meta.url)), `.data/main-${process.env.E2E_PORT}`, 'outbox');

/** An .eml's text with quoted-printable soft breaks and escapes undone. */
const decodeQuotedPrintable = (text: string) =>
  text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/** (`dir`: another server's DATA_DIR/outbox.) The first link matching `link` in the newest .eml to `email` whose subject matches `subject` (the worker writes it within seconds when idle; CI's two workers keep the server busy, and 15 s was once not enough). */
export async function linkFromOutbox(email: string, subject: RegExp, link: RegExp, dir = outboxDir): Promise<string> {
  let found = '';
  await expect
    .poll(
      () => {
        let files: string[] = [];
        try {
          files = readdirSync(dir).filter((name) => name.endsWith('.eml')).sort();
        } catch {
          return '';
        }
        for (const name of files.reverse()) {
          const text = decodeQuotedPrintable(readFileSync(path.join(dir, name), 'utf8'));
          if (!text.includes(email) || !subject.test(text)) continue;
          found = link.exec(text)?.[0] ?? '';
          if (found) return found;
        }
        return '';
      },
      { timeout: 45_000, message: `an e-mail to ${email} in ${dir}` },
    )
    .not.toBe('');
  return found;
}
