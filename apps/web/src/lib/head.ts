import { createContext, useContext, useEffect } from 'react';
import { replayEarlyInput, takeEarlyInput } from './early-input';

/** A page's head: what search engines and link previews read. */
export interface PageHead {
  /** the whole <title> */
  title: string;
  description?: string;
  /**
   * The page's canonical path (made absolute with PUBLIC_ORIGIN on the server). Default:
   * the page's own path without its query, so filtered or paged catalogue URLs point to
   * the unfiltered list.
   */
  canonicalPath?: string;
  /** private or empty pages: `noindex` */
  noindex?: boolean;
  /** Open Graph type (default website) */
  type?: 'website' | 'profile';
  /** an absolute https image for link previews */
  image?: string;
  /** schema.org structured data */
  jsonLd?: Record<string, unknown>;
}

/**
 * A page's absolute URL: PUBLIC_ORIGIN and the page's path. Only a path that starts with one
 * `/` is kept; anything that could name another host parsed as a URL (`//host/x`, `/\host`,
 * `http://host`) or is no path at all stands for the origin's root instead.
 */
export function absoluteUrl(publicOrigin: string, path: string): string {
  return publicOrigin + (/^\/(?![/\\])/.test(path) ? path : '/');
}

export const DEFAULT_DESCRIPTION =
  'LearnLingo: find an online language teacher, filter by language, level and price, and book a trial lesson.';

/** Where the server collects the head of the page it renders (the deepest useHead wins). */
export interface HeadCollector {
  set(head: PageHead): void;
}

/**
 * Once the page is live: what a person typed or picked before (the loader's record, see
 * early-input.ts) is told to React, at once (the page's code is here, nothing to fetch).
 */
function replayOnce(): void {
  const early = takeEarlyInput();
  if (early && early.size > 0) replayEarlyInput(early);
}

export const HeadContext = createContext<HeadCollector | null>(null);

/**
 * Declares the page's head. On the server it is collected into the HTML's <head>; in the
 * browser, navigating to the page updates the title and description. Every page calls it,
 * so its effect also marks the document once the page is live (`<html data-hydrated>`):
 * styles that only make sense without JavaScript and the browser tests key on it.
 */
export function useHead(head: PageHead): void {
  useContext(HeadContext)?.set(head);
  const { title, description = DEFAULT_DESCRIPTION } = head;
  useEffect(() => {
    // the page is live (hydrated or rendered here): what is on screen now answers clicks
    document.documentElement.dataset.hydrated = '';
    replayOnce();
    document.title = title;
    document.querySelector('meta[name="description"]')?.setAttribute('content', description);
  }, [title, description]);
}
