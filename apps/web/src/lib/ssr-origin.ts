/**
 * The origin of URLs built while rendering on the server, where there is no page to take
 * one from. Requests to it never leave the process: the server answers them in-process.
 */
export const SSR_ORIGIN = 'http://ssr.invalid';
