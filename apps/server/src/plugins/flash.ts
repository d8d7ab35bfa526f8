import { accountMessages, reviewMessages, toastMessages } from '@learnlingo/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';

/*
 * A form answered by the server (the heart, Log in, Registration before or without the app:
 * decision 105) redirects back where the person was; the toast the app would have shown
 * there ("Teacher was added") comes with the next page the server renders, as a status line
 * that fades away on its own (CSS, no script). It rides in a cookie for one page: HttpOnly,
 * SameSite=Lax, a minute at most, cleared by the page that shows it. Only a page rendered
 * for this person shows it (a signed-in page, never one kept in the shared HTML cache).
 */

const FLASH_COOKIE = 'll_flash';
const FLASHES = {
  favoriteAdded: toastMessages.favoriteAdded,
  favoriteRemoved: toastMessages.favoriteRemoved,
  signInSuccess: toastMessages.signInSuccess,
  signUpSuccess: toastMessages.signUpSuccess,
  nameChanged: accountMessages.nameChanged,
  passwordChanged: accountMessages.passwordChanged,
  // the reviews' forms (review-form-routes.ts): taken, or why not
  reviewSaved: reviewMessages.saved,
  teacherAbsentReported: reviewMessages.teacherAbsentReported,
  replySaved: reviewMessages.replySaved,
  reviewRatingRequired: reviewMessages.ratingRequired,
  reviewCommentTooLong: reviewMessages.commentTooLong,
  replyRequired: reviewMessages.replyRequired,
  replyTooLong: reviewMessages.replyTooLong,
  reviewNotYet: reviewMessages.notYet,
  reviewClosed: reviewMessages.notReviewable,
  reviewEditClosed: reviewMessages.editClosed,
  noShowClosed: reviewMessages.noShowClosed,
  replyExists: reviewMessages.alreadyAnswered,
} as const;
export type Flash = keyof typeof FLASHES;

/** A cookie header longer than this is not read for a flash (Node caps all headers at 16 KB). */
const COOKIE_HEADER_MAX = 8192;

const isFlash = (value: string): value is Flash => Object.hasOwn(FLASHES, value);

/** Sets the flash for the page the redirect leads to. */
export function setFlash(request: FastifyRequest, reply: FastifyReply, flash: Flash): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${FLASH_COOKIE}=${flash}; Path=/; Max-Age=60; HttpOnly; SameSite=Lax${secure}`);
}

/** The flash this request carries, if any (a known one: anything else is ignored). */
export function readFlash(cookieHeader: string | undefined): Flash | undefined {
  if (!cookieHeader || cookieHeader.length > COOKIE_HEADER_MAX) return undefined;
  for (const pair of cookieHeader.split(';')) {
    const [name, value] = pair.split('=', 2).map((part) => part.trim());
    if (name === FLASH_COOKIE && value !== undefined && isFlash(value)) return value;
  }
  return undefined;
}

/** The cookie that ends a flash once a page has shown it. */
export const CLEAR_FLASH = `${FLASH_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`;

/** The page with the flash's words as a status line, outside the app's root (React never sees it). */
export function withFlash(html: string, flash: Flash): string {
  const root = html.indexOf('<div id="root"');
  if (root < 0) return html;
  // the words are the contract's own constants: no markup, nothing from the request
  return `${html.slice(0, root)}<p class="flash" role="status">${FLASHES[flash]}</p>${html.slice(root)}`;
}
