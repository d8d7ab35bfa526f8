import type { ComponentType } from 'react';
import type { FormEcho, Role } from '@learnlingo/contract/plain';
import type { Params } from 'react-router';
import type { AppDispatch } from '../store';

/** What a page's server-side prefetch gets: the store's dispatch and the route's URL. */
export interface PrefetchContext {
  dispatch: AppDispatch;
  params: Params;
  pathname: string;
  searchParams: URLSearchParams;
  signedIn: boolean;
  /** the signed-in user's role (decision 109); undefined for a visitor */
  role?: Role | undefined;
  /** a form post the server refused (/login, /register), to show again with its errors */
  form?: FormEcho;
}

/**
 * What the server makes of a page: `not-found` answers 404 with the page as rendered (`gone`:
 * 410, a teacher hidden after being public);
 * `visitor` (a signed-in page asked for by a visitor) redirects to `/`; `{ canonical }`
 * redirects permanently to the page's one spelling of its URL: a path on this site that the
 * page builds itself (`/teachers?…`), never one taken from the request as it came (a path
 * the server received is already in its normal form, plugins/ssr.ts `pageTarget`).
 */
export type PrefetchOutcome = 'not-found' | 'gone' | 'visitor' | { canonical: string } | undefined;

/**
 * A page module (pages/*-page.tsx): its page, and what the server fetches into the store
 * before rendering it, so that the HTML holds the page's data and the browser, handed
 * the store, does not fetch it again.
 */
export interface PageModule {
  Component: ComponentType;
  prefetch?: (context: PrefetchContext) => Promise<PrefetchOutcome>;
}
