/*
 * The sitemaps protocol (sitemaps.org/protocol.html): a sitemap is a <urlset> of at most
 * 50,000 URLs and 50 MB (52,428,800 bytes) uncompressed; past that, a <sitemapindex>
 * points to several. Every value is entity-escaped; URLs are absolute.
 */

/** sitemaps.org's limits for one sitemap file. */
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;

const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
export const URLSET_OPEN = `${XML_DECLARATION}<urlset xmlns="${NAMESPACE}">\n`;
export const URLSET_CLOSE = '</urlset>\n';
const INDEX_OPEN = `${XML_DECLARATION}<sitemapindex xmlns="${NAMESPACE}">\n`;
const INDEX_CLOSE = '</sitemapindex>\n';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text as XML character data or an attribute value: the five entities the protocol names. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/** A sitemap entry: `loc` is an absolute URL, `lastmod` a W3C datetime (or none). */
export interface SitemapEntry {
  loc: string;
  lastmod?: string | null | undefined;
}

const entry = (tag: 'url' | 'sitemap', { loc, lastmod }: SitemapEntry) =>
  `<${tag}><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : ''}</${tag}>\n`;

export const urlEntry = (e: SitemapEntry) => entry('url', e);

export function sitemapIndex(parts: readonly SitemapEntry[]): string {
  return `${INDEX_OPEN}${parts.map((p) => entry('sitemap', p)).join('')}${INDEX_CLOSE}`;
}

/** A timestamp as a W3C datetime to the second, in UTC (2026-11-23T06:43:22Z). */
export function w3cDatetime(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

/**
 * How many URLs one file may hold for this origin: the protocol's 50,000, or fewer if its
 * longest possible entries would pass 50 MB (a teacher's URL is at most the origin plus
 * `/teachers/` and a 64-character id, which needs no percent-encoding; so this only binds
 * for an absurd origin, but it is checked rather than assumed).
 */
export function urlsPerFile(origin: string, longestPath: number): number {
  const longestEntry = Buffer.byteLength(
    urlEntry({ loc: `${origin}${'x'.repeat(longestPath)}`, lastmod: w3cDatetime(new Date(0)) }),
  );
  const room = SITEMAP_MAX_BYTES - Buffer.byteLength(URLSET_OPEN + URLSET_CLOSE);
  return Math.max(1, Math.min(SITEMAP_MAX_URLS, Math.floor(room / longestEntry)));
}
