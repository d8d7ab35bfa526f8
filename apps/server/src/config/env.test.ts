import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from './env.js';

describe('env', () => {
  it('has working defaults', () => {
    const env = loadEnv({}, '/srv/app');
    expect(env).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: path.resolve('/srv/app', 'data'),
      databaseUrl: undefined,
      publicOrigin: 'http://127.0.0.1:3000',
      trustProxy: false,
      seedCount: 32,
      logLevel: 'info',
      authAttemptsPer10s: 3,
      catalogueCacheEntries: 2000,
      databasePoolSize: 10,
      ssrConcurrency: 4,
    });
    expect(env.trustedOrigins).toEqual(['http://127.0.0.1:3000', 'http://localhost:3000']);
    expect(env.webDist).toMatch(/apps[\\/]web[\\/]dist$/);
  });

  it('reads the variables', () => {
    const env = loadEnv({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/ll',
      DATABASE_URL: 'postgres://u@db/ll',
      PUBLIC_ORIGIN: 'https://learnlingo.example/',
      TRUST_PROXY: '10.0.0.0/8, 127.0.0.1',
    });
    expect(env).toMatchObject({
      port: 8080,
      dataDir: '/var/lib/ll',
      databaseUrl: 'postgres://u@db/ll',
      publicOrigin: 'https://learnlingo.example',
      trustProxy: ['10.0.0.0/8', '127.0.0.1'],
    });
    expect(env.trustedOrigins).toContain('http://localhost:8080');
    expect(loadEnv({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadEnv({ AUTH_ATTEMPTS_PER_10S: '50' }).authAttemptsPer10s).toBe(50);
    expect(loadEnv({ DATABASE_POOL_SIZE: '2' }).databasePoolSize).toBe(2);
    expect(loadEnv({ SSR_CONCURRENCY: '8' }).ssrConcurrency).toBe(8);
    expect(loadEnv({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
  });

  it('TRUST_PROXY (issue 10, finding 8): production takes only addresses or CIDRs, and says why', () => {
    const production = { NODE_ENV: 'production' };
    for (const value of ['1', '2', 'true', 'yes']) {
      expect(() => loadEnv({ ...production, TRUST_PROXY: value })).toThrow(
        /TRUST_PROXY: .*lets a client that reaches the port directly choose its own address .*sign-in rate-limit bucket/,
      );
    }
    expect(loadEnv({ ...production, TRUST_PROXY: '10.0.0.0/8, ::1, fd00::/8, loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    expect(loadEnv({ ...production, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it('TRUST_PROXY=0.0.0.0/0 or ::/0 is every address: true outside production, refused in production like true', () => {
    for (const value of ['0.0.0.0/0', '::/0', '10.0.0.0/8, ::/0', '1.2.3.4/00']) {
      expect(loadEnv({ TRUST_PROXY: value }).trustProxy, value).toBe(true);
      expect(() => loadEnv({ NODE_ENV: 'production', TRUST_PROXY: value }), value).toThrow(EnvError);
      expect(() => loadEnv({ NODE_ENV: 'production', TRUST_PROXY: value }), value).toThrow(
        /TRUST_PROXY: ".*\/0+" \(every address, as true\) refused: .*choose its own address/,
      );
    }
    // the shortest prefix short of everyone is a range like any other
    expect(loadEnv({ NODE_ENV: 'production', TRUST_PROXY: '0.0.0.0/1, ::/1' }).trustProxy).toEqual(['0.0.0.0/1', '::/1']);
  });

  it('mail: SMTP_URL and a From that defaults to no-reply at PUBLIC_ORIGIN\'s host', () => {
    expect(loadEnv({}).smtpUrl).toBeUndefined();
    expect(loadEnv({}).mailFrom).toBe('LearnLingo <no-reply@localhost>');
    expect(loadEnv({ PUBLIC_ORIGIN: 'https://learnlingo.example' }).mailFrom).toBe('LearnLingo <no-reply@learnlingo.example>');
    const env = loadEnv({ SMTP_URL: 'smtps://u:p@smtp.example.com:465', MAIL_FROM: 'School <school@example.com>' });
    expect(env).toMatchObject({ smtpUrl: 'smtps://u:p@smtp.example.com:465', mailFrom: 'School <school@example.com>' });
    expect(loadEnv({}).outboxRetentionDays).toBe(7);
    expect(loadEnv({ OUTBOX_RETENTION_DAYS: '30' }).outboxRetentionDays).toBe(30);
  });

  it('the school: hours in its zone (defaults Mon–Fri 09–18 UTC) and its e-mail', () => {
    expect(loadEnv({})).toMatchObject({
      schoolTimeZone: 'UTC',
      schoolHours: [[[9, 18]], [[9, 18]], [[9, 18]], [[9, 18]], [[9, 18]], [], []],
      schoolEmail: undefined,
    });
    const env = loadEnv({ SCHOOL_TIME_ZONE: 'America/New_York', SCHOOL_HOURS: 'Sat-Sun 10:00-14:00', SCHOOL_EMAIL: 'school@example.com' });
    expect(env).toMatchObject({
      schoolTimeZone: 'America/New_York',
      schoolHours: [[], [], [], [], [], [[10, 14]], [[10, 14]]],
      schoolEmail: 'school@example.com',
    });
  });

  it.each([
    [{ SCHOOL_TIME_ZONE: 'Mars/Olympus' }, 'SCHOOL_TIME_ZONE'],
    [{ SCHOOL_HOURS: 'weekdays' }, 'SCHOOL_HOURS'],
    [{ SCHOOL_EMAIL: 'not an address' }, 'SCHOOL_EMAIL'],
    [{ SMTP_URL: 'http://smtp.example.com' }, 'SMTP_URL'],
    [{ MAIL_FROM: 'no address' }, 'MAIL_FROM'],
    [{ OUTBOX_RETENTION_DAYS: '0' }, 'OUTBOX_RETENTION_DAYS'],
    [{ OUTBOX_RETENTION_DAYS: '1.5' }, 'OUTBOX_RETENTION_DAYS'],
    [{ MAIL_FROM: 'a@b.c\r\nBcc: x@y.z' }, 'MAIL_FROM'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ PUBLIC_ORIGIN: 'not a url' }, 'PUBLIC_ORIGIN'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ AUTH_SECRET: 'short' }, 'AUTH_SECRET'],
    [{ TRUST_PROXY: 'maybe?' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '...' }, 'TRUST_PROXY'],
    [{ SOURCE_MAPS: 'yes' }, 'SOURCE_MAPS'],
    [{ REQUEST_TIMEOUT_MS: '10' }, 'REQUEST_TIMEOUT_MS'],
    [{ MAX_CONNECTIONS: '0' }, 'MAX_CONNECTIONS'],
    [{ TRUST_PROXY: '999.1.1.1' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/8, 2' }, 'TRUST_PROXY'],
    [{ SEED_COUNT: '-1' }, 'SEED_COUNT'],
    [{ AUTH_ATTEMPTS_PER_10S: '0' }, 'AUTH_ATTEMPTS_PER_10S'],
    [{ CATALOGUE_CACHE_ENTRIES: '-5' }, 'CATALOGUE_CACHE_ENTRIES'],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE'],
    [{ SSR_CONCURRENCY: '0' }, 'SSR_CONCURRENCY'],
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@db/ll' }, 'AUTH_SECRET'],
  ])('refuses %j naming %s', (source, name) => {
    expect(() => loadEnv(source)).toThrow(EnvError);
    expect(() => loadEnv(source)).toThrow(new RegExp(`\\b${name}\\b`));
  });
});
