import type { BookingCreated } from './booking.js';

/**
 * Server rendering: what the Fastify server (plugins/ssr.ts) and the web app's server
 * entry (apps/web/src/entry-server.tsx) say to each other.
 */

/**
 * An API request answered in-process, without the Fetch API's objects: the path and query
 * (`/api/…`), lower-case header names, the body as text.
 */
export interface ApiRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The in-process API's answer: status, headers as Node has them (lower-case names), the body as text. */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** What the server gives the renderer for one request. */
export type RenderRequest = {
  /** the request's path and query */
  url: string;
  /** whether the request carries a session cookie: without one there is no session to ask for */
  sessionCookie: boolean;
  /** canonical URLs and Open Graph URLs start with it */
  publicOrigin: string;
  /** the school's contact address (the console's setting; SCHOOL_EMAIL before any), shown in the footer */
  contactEmail: string | null;
  /** a form posted without scripts that the server refused: the page shows it again with its errors */
  form?: FormEcho;
} & (
  | {
      /**
       * answers the page's API requests in-process, with the visitor's cookie: no Request,
       * Response or body stream per call (what the server gives)
       */
      api: (request: ApiRequest) => Promise<ApiAnswer>;
      fetch?: (request: Request) => Promise<Response>;
    }
  | {
      /** the same through the Fetch API (tests, tools; an entry given both uses `api`) */
      fetch: (request: Request) => Promise<Response>;
      api?: undefined;
    }
);

/**
 * A refused form post (/login, /register, a booking page's), rendered again: what was typed
 * (never a password), each field's message, and a message for the whole form (wrong password,
 * e-mail in use, too many bookings). A booking page's post that succeeded is rendered with
 * `booked`: the confirmation (decision 105).
 */
export interface FormEcho {
  form: 'login' | 'register' | 'booking' | 'forgot-password' | 'reset-password' | 'account-name' | 'account-password';
  values: Record<string, string>;
  errors: Record<string, string>;
  message?: string;
  /**
   * /forgot-password's post was taken: the page shows the answer the modal shows (the same whether
   * or not the address has an account)
   */
  sent?: boolean;
  /** the booking just made, with the zone its times are shown in */
  booked?: { created: BookingCreated; timeZone: string };
}

export type RenderResult =
  | { kind: 'redirect'; status: 301 | 302; location: string }
  | {
      kind: 'page';
      status: number;
      /** the tags that go into <head> (title, description, canonical, Open Graph, JSON-LD) */
      head: string;
      /** the app's markup, for <div id="root"> */
      html: string;
      /** the same markup as React wrote it (UTF-8), when the entry has it: what the server sends */
      htmlBytes?: Uint8Array;
      /** the store, as JSON safe inside <script type="application/json">; null = the browser renders anew */
      state: string | null;
      /** signed in: the HTML is private to this user */
      signedIn: boolean;
      /** whether the session could be read (when not, the HTML is not cached) */
      sessionKnown: boolean;
      /** the page modules rendered (Vite manifest keys): their CSS goes into <head> */
      modules: string[];
      /** what failed, for the server's log (the page shows only a 500) */
      error?: unknown;
    };

/** The server entry's module: one function. */
export interface ServerEntry {
  render(request: RenderRequest): Promise<RenderResult>;
}
