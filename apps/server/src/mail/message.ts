import { EMAIL_MAX } from '@learnlingo/contract';
import { z } from 'zod';

/** No control characters but tab, CR and LF (a body's lines), checked after the length cap. */
const NO_CONTROLS = /^[\P{Cc}\t\r\n]*$/u;
/** A header value: no control characters at all (no CR/LF: no header injection). */
const ONE_LINE = /^[^\p{Cc}]*$/u;
/** a bare address: something@something, no spaces, no angle brackets */
const ADDRESS = /^[^\s@<>]+@[^\s@<>]+$/;

const MAX_TEXT = 200_000;

export const mailAttachmentSchema = z.object({
  filename: z.string().min(1).max(200).regex(ONE_LINE),
  contentType: z.string().min(1).max(200).regex(ONE_LINE),
  /** the file's text (e.g. an .ics calendar), sent as UTF-8 */
  content: z.string().max(MAX_TEXT),
});

/** One e-mail to one recipient, as enqueued and as kept in the outbox. */
export const mailMessageSchema = z.object({
  to: z.string().min(3).max(EMAIL_MAX).regex(ADDRESS),
  subject: z.string().min(1).max(300).regex(ONE_LINE),
  text: z.string().max(MAX_TEXT).regex(NO_CONTROLS),
  html: z.string().max(MAX_TEXT).regex(NO_CONTROLS).optional(),
  attachments: z.array(mailAttachmentSchema).max(5).optional(),
});

export type MailAttachment = z.infer<typeof mailAttachmentSchema>;
export type MailMessage = z.infer<typeof mailMessageSchema>;

export class MailMessageError extends Error {
  override name = 'MailMessageError';
}

/** The message, checked; throws MailMessageError naming the fields (never their values). */
export function checkMailMessage(message: unknown): MailMessage {
  const result = mailMessageSchema.safeParse(message);
  if (result.success) return result.data;
  const fields = [...new Set(result.error.issues.map((issue) => issue.path.join('.') || 'message'))];
  throw new MailMessageError(`invalid mail message: ${fields.join(', ')}`);
}
