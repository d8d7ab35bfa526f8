import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { isTimeZone, parseWeeklyHours, type WeeklyHours } from '../modules/booking/schedule.js';
import { defaultWebDist } from './paths.js';

const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);

const originSchema = z
  .url({ protocol: /^https?$/, error: 'expected an http(s) origin such as https://learnlingo.example' })
  .transform((v) => new URL(v).origin);

const rawEnvSchema = z.object({
  NODE_ENV: z.preprocess(emptyAsUndefined, z.enum(['development', 'production', 'test']).default('development')),
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyAsUndefined, z.string().min(1).default('127.0.0.1')),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().min(1).default('./data')),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// or postgresql:// URL')
      .optional(),
  ),
  AUTH_SECRET: z.preprocess(
    emptyAsUndefined,
    z.string().min(32, 'must be at least 32 characters (e.g. `openssl rand -hex 32`)').optional(),
  ),
  PUBLIC_ORIGIN: z.preprocess(emptyAsUndefined, originSchema.optional()),
  LOG_LEVEL: z.preprocess(
    emptyAsUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  /** Fastify `trustProxy`: false (default) or a comma-separated list of proxy addresses/CIDRs; true (or a /0, the same) or a hop count outside production only. */
  TRUST_PROXY: z.preprocess(emptyAsUndefined, z.string().default('false')),
  WEB_DIST: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** `npm run dev`: Vite inside the server, pages rendered from apps/web's source with hot reload */
  WEB_DEV: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).default('false')),
  SEED_COUNT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(1_000_000).default(32)),
  DATABASE_POOL_SIZE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100).default(10)),
  CATALOGUE_CACHE_ENTRIES: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(1_000_000).default(2000)),
  CATALOGUE_CARD_MB: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65_536).default(64)),
  HTML_CACHE_MAX: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(1_000_000).default(2000)),
  SSR_CONCURRENCY: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1000).default(4)),
  AUTH_ATTEMPTS_PER_10S: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1000).default(3)),
  BOOKINGS_PER_ADDRESS_PER_HOUR: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1_000_000).default(5)),
  BOOKINGS_PER_EMAIL_PER_HOUR: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1_000_000).default(3)),
  BOOKING_HOLD_MINUTES: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(24 * 60).default(30)),
  SCHOOL_TIME_ZONE: z.preprocess(emptyAsUndefined, z.string().max(64).default('UTC')),
  SCHOOL_HOURS: z.preprocess(emptyAsUndefined, z.string().max(300).default('Mon-Fri 09:00-18:00')),
  SCHOOL_EMAIL: z.preprocess(emptyAsUndefined, z.email().max(254).optional()),
  REQUEST_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1000).max(600_000).default(30_000)),
  SOURCE_MAPS: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).optional()),
  MAX_CONNECTIONS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1_000_000).default(4096)),
  SMTP_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .max(2000)
      .regex(/^smtps?:\/\/[^\s]+$/, 'expected an smtp:// or smtps:// URL such as smtps://user:pass@smtp.example.com')
      .optional(),
  ),
  /** days an .eml file in DATA_DIR/outbox (and a refused message's row) is kept (decision 104) */
  OUTBOX_RETENTION_DAYS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(3650).default(7)),
  MAIL_FROM: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .max(320)
      .regex(/^[^\p{Cc}@]*@[^\p{Cc}]*$/u, 'expected a sender such as "LearnLingo <no-reply@learnlingo.example>"')
      .optional(),
  ),
});

export type TrustProxy = boolean | number | string[];

export interface Env {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** absolute */
  dataDir: string;
  /** as given, for messages */
  dataDirDisplay: string;
  databaseUrl: string | undefined;
  authSecret: string | undefined;
  publicOrigin: string;
  /** PUBLIC_ORIGIN plus the local addresses of this port */
  trustedOrigins: string[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  trustProxy: TrustProxy;
  /** absolute */
  webDist: string;
  /** development: apps/web's folder, whose source Vite serves and renders (npm run dev); undefined: the built app */
  webDevRoot: string | undefined;
  seedCount: number;
  /** sign-in and sign-up attempts allowed per client address per 10 s (better-auth's rule: 3) */
  authAttemptsPer10s: number;
  /** bookings allowed per client address (IPv6: per /64) per hour, on every server together (decision 102) */
  bookingsPerAddressPerHour: number;
  /** bookings allowed per e-mail address (case and +tag folded) per hour */
  bookingsPerEmailPerHour: number;
  /** how long a visitor's booking waits for its e-mail link before its time is free again */
  bookingHoldMinutes: number;
  /** PostgreSQL connections per server process (DATABASE_URL only) */
  databasePoolSize: number;
  /** responses kept by each server's in-process catalogue cache (0 turns it off) */
  catalogueCacheEntries: number;
  /** megabytes (of characters) of teachers' cards kept for the pages found in the search index (decision 096) */
  catalogueCardMb: number;
  /** anonymous pages kept by each server's in-process HTML cache (0 turns it off) */
  htmlCacheMax: number;
  /** pages each server renders at once; the others wait their turn (decision 073, addendum 2) */
  ssrConcurrency: number;
  /** the hours (in schoolTimeZone) of teachers who have none of their own */
  schoolHours: WeeklyHours;
  /** IANA name */
  schoolTimeZone: string;
  /** receives the booking e-mails of teachers without an address */
  schoolEmail: string | undefined;
  /** a request's whole head and body must arrive within this (slow-body clients are cut off) */
  requestTimeoutMs: number;
  /** open connections this process accepts; more are dropped (and logged) */
  maxConnections: number;
  /** whether the web app's .map files are served (default: not in production) */
  sourceMaps: boolean;
  /** where mail is sent; unset: each message is written to DATA_DIR/outbox/ as an .eml file */
  smtpUrl: string | undefined;
  /** the From of every message */
  mailFrom: string;
  /** days a written .eml file (the delivery without SMTP_URL) and a refused message are kept */
  outboxRetentionDays: number;
}

export class EnvError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid environment:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'EnvError';
  }
}

/** An IPv4/IPv6 address, or one with a /prefix of a valid length (net.isIP: no pattern). */
function isAddressOrCidr(item: string): boolean {
  const slash = item.indexOf('/');
  const address = slash === -1 ? item : item.slice(0, slash);
  const version = isIP(address);
  if (version === 0) return false;
  if (slash === -1) return true;
  const prefix = item.slice(slash + 1);
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** Why a hop count or `true` is refused in production (issue 10, finding 8). */
const TRUST_BY_COUNT =
  'trusting X-Forwarded-For by hop count (or from anyone, with true) lets a client that reaches the port ' +
  'directly choose its own address — and with it its own sign-in rate-limit bucket. In production list the ' +
  "proxies' addresses or CIDRs instead, e.g. TRUST_PROXY=10.0.0.0/8 or TRUST_PROXY=127.0.0.1";

function parseTrustProxy(raw: string, production: boolean): TrustProxy | Error {
  const value = raw.trim();
  if (value === 'false' || value === '0' || value === 'no') return false;
  if (value === 'true' || value === 'yes' || /^\d+$/.test(value)) {
    if (production) return new Error(`"${value}" refused: ${TRUST_BY_COUNT}`);
    return value === 'true' || value === 'yes' ? true : Number(value);
  }
  const list = value.length > 4000 ? [value] : value.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = list.find((item) => !isAddressOrCidr(item) && !NAMED_RANGES.has(item));
  if (list.length === 0 || bad !== undefined) {
    return new Error(`expected the proxies' addresses or CIDRs (comma-separated), or false; "${(bad ?? raw).slice(0, 100)}" is not one`);
  }
  // A /0 (0.0.0.0/0, ::/0) is every address: what `true` says, and refused with it in
  // production. (Fastify's proxy-addr takes no /0: passed on, it failed the start with a stack.)
  const everyone = list.find((item) => /\/0+$/.test(item));
  if (everyone !== undefined) {
    if (production) return new Error(`"${everyone}" (every address, as true) refused: ${TRUST_BY_COUNT}`);
    return true;
  }
  return list;
}

/**
 * Reads the process environment once. Every other module receives typed values.
 * Throws EnvError naming each bad variable.
 */
export function loadEnv(source: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Env {
  const parsed = rawEnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new EnvError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`),
    );
  }
  const raw = parsed.data;
  const issues: string[] = [];

  const trustProxy = parseTrustProxy(raw.TRUST_PROXY, raw.NODE_ENV === 'production');
  if (trustProxy instanceof Error) issues.push(`TRUST_PROXY: ${trustProxy.message}`);

  if (raw.NODE_ENV === 'production' && raw.DATABASE_URL && !raw.AUTH_SECRET) {
    issues.push('AUTH_SECRET: required in production with DATABASE_URL (every server must share one secret)');
  }
  if (!isTimeZone(raw.SCHOOL_TIME_ZONE)) issues.push(`SCHOOL_TIME_ZONE: unknown time zone "${raw.SCHOOL_TIME_ZONE}" (expected an IANA name such as Europe/Kyiv)`);
  const schoolHours = parseWeeklyHours(raw.SCHOOL_HOURS);
  if (schoolHours instanceof Error) issues.push(`SCHOOL_HOURS: ${schoolHours.message}`);
  if (issues.length > 0) throw new EnvError(issues);

  const hostForUrl = raw.HOST.includes(':') ? `[${raw.HOST}]` : raw.HOST;
  const localHost = raw.HOST === '0.0.0.0' || raw.HOST === '::' ? '127.0.0.1' : hostForUrl;
  const publicOrigin = raw.PUBLIC_ORIGIN ?? `http://${localHost}:${raw.PORT}`;
  const originHost = new URL(publicOrigin).hostname;
  const mailFrom = raw.MAIL_FROM ?? `LearnLingo <no-reply@${/^[\d.]+$|:|^\[/.test(originHost) ? 'localhost' : originHost}>`;
  const trustedOrigins = [
    ...new Set([publicOrigin, `http://localhost:${raw.PORT}`, `http://127.0.0.1:${raw.PORT}`]),
  ];

  return {
    nodeEnv: raw.NODE_ENV,
    port: raw.PORT,
    host: raw.HOST,
    dataDir: path.resolve(cwd, raw.DATA_DIR),
    dataDirDisplay: raw.DATA_DIR,
    databaseUrl: raw.DATABASE_URL,
    authSecret: raw.AUTH_SECRET,
    publicOrigin,
    trustedOrigins,
    logLevel: raw.LOG_LEVEL,
    trustProxy: trustProxy as TrustProxy,
    webDist: raw.WEB_DIST ? path.resolve(cwd, raw.WEB_DIST) : defaultWebDist,
    webDevRoot: raw.WEB_DEV === 'true' ? path.dirname(defaultWebDist) : undefined,
    seedCount: raw.SEED_COUNT,
    authAttemptsPer10s: raw.AUTH_ATTEMPTS_PER_10S,
    bookingsPerAddressPerHour: raw.BOOKINGS_PER_ADDRESS_PER_HOUR,
    bookingsPerEmailPerHour: raw.BOOKINGS_PER_EMAIL_PER_HOUR,
    bookingHoldMinutes: raw.BOOKING_HOLD_MINUTES,
    catalogueCacheEntries: raw.CATALOGUE_CACHE_ENTRIES,
    catalogueCardMb: raw.CATALOGUE_CARD_MB,
    htmlCacheMax: raw.HTML_CACHE_MAX,
    ssrConcurrency: raw.SSR_CONCURRENCY,
    requestTimeoutMs: raw.REQUEST_TIMEOUT_MS,
    maxConnections: raw.MAX_CONNECTIONS,
    sourceMaps: raw.SOURCE_MAPS === undefined ? raw.NODE_ENV !== 'production' : raw.SOURCE_MAPS === 'true',
    databasePoolSize: raw.DATABASE_POOL_SIZE,
    schoolHours: schoolHours as WeeklyHours,
    schoolTimeZone: raw.SCHOOL_TIME_ZONE,
    schoolEmail: raw.SCHOOL_EMAIL,
    smtpUrl: raw.SMTP_URL,
    mailFrom,
    outboxRetentionDays: raw.OUTBOX_RETENTION_DAYS,
  };
}
