import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from './test/db.js';
import { builtEntry } from './test/built.js';

/** The repository's package.json, whose `start` is what the README gives a newcomer. */
const ROOT_PACKAGE = fileURLToPath(new URL('../../../package.json', import.meta.url));
const WEB_ASSETS = fileURLToPath(new URL('../../web/dist/assets', import.meta.url));

/** A port free on 127.0.0.1 now (PUBLIC_ORIGIN must name the port before the start). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

const SERVER = builtEntry('server.ts');
/** what `npm start` runs */
const START = builtEntry('start.ts');

interface Started {
  child: ChildProcess;
  origin: string;
  output: () => string;
  exit: Promise<number | null>;
}

/** The server process on DATA_DIR, in production (`entry` and `env` change that: the test's NODE_ENV is test). */
function start(dataDir: string, { entry = SERVER, env = {} }: { entry?: string; env?: Record<string, string> } = {}): Promise<Started> {
  const child = spawn(process.execPath, [entry], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      AUTH_SECRET: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve({ child, origin: match[1] as string, output: () => out, exit });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exit.then((code) => reject(Object.assign(new Error(`server exited (${code}): ${out}`), { output: out, code })));
  });
}

describe.skipIf(testEngine === 'postgres')('the server process (embedded database lifecycle; PGlite run only)', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'learnlingo-server-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('starts on a fresh DATA_DIR, refuses a second process, shuts down on SIGTERM and restarts on the same data', async () => {
    const first = await start(dataDir);
    try {
      const health = await fetch(`${first.origin}/api/health`);
      expect(await health.json()).toEqual({ status: 'ok', database: 'ok', engine: 'pglite', searchIndex: 'pending' });
      const page = (await (await fetch(`${first.origin}/api/teachers?limit=50`)).json()) as { items: { id: string }[] };
      expect(page.items).toHaveLength(32);
      expect(fs.statSync(path.join(dataDir, 'auth-secret')).mode & 0o777).toBe(0o600);

      const second = await start(dataDir).catch((e: { output: string; code: number }) => e);
      expect(second).toMatchObject({ code: 1 });
      expect((second as { output: string }).output).toContain(`is in use by pid ${first.child.pid}`);
    } finally {
      first.child.kill('SIGTERM');
    }
    expect(await first.exit).toBe(0);
    expect(fs.existsSync(path.join(dataDir, '.lock'))).toBe(false);

    const again = await start(dataDir);
    try {
      const page = (await (await fetch(`${again.origin}/api/teachers?limit=50`)).json()) as { items: unknown[] };
      expect(page.items).toHaveLength(32);
      expect(again.output()).not.toContain('seeded');
    } finally {
      again.child.kill('SIGTERM');
    }
    expect(await again.exit).toBe(0);
  }, 120_000);

  it('`npm start` (issue 27) runs start.js, production whatever NODE_ENV the shell holds: no source map served, sign-up and sign-in work over http', async () => {
    const { scripts } = JSON.parse(fs.readFileSync(ROOT_PACKAGE, 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.start).toMatch(/&& node apps\/server\/dist\/start\.js$/);
    const map = fs.readdirSync(WEB_ASSETS).find((name) => name.endsWith('.js.map'));
    expect(map, 'npm run build makes source maps').toBeDefined();

    const port = await freePort();
    // the shell's NODE_ENV says development: `npm start` is production all the same
    const server = await start(dataDir, { entry: START, env: { NODE_ENV: 'development', PORT: String(port) } });
    try {
      const origin = `http://127.0.0.1:${port}`;
      expect(server.origin).toBe(origin);
      const home = await fetch(`${origin}/`, { headers: { accept: 'text/html' } });
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('<link rel="canonical" href="http://127.0.0.1:');
      expect((await fetch(`${origin}/assets/${map?.slice(0, -'.map'.length)}`)).status).toBe(200);
      expect((await fetch(`${origin}/assets/${map}`)).status).toBe(404);

      // over plain http (PUBLIC_ORIGIN http://127.0.0.1:…) the session cookie is not Secure, so it works
      const account = { name: 'Start Test', email: `start-${process.pid}@example.com`, password: 'secret-pass-1' };
      const post = (url: string, body: object) =>
        fetch(`${origin}${url}`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect((await post('/api/auth/sign-up/email', account)).status).toBe(200);
      const signIn = await post('/api/auth/sign-in/email', { email: account.email, password: account.password });
      expect(signIn.status).toBe(200);
      const cookies = signIn.headers.getSetCookie();
      expect(cookies.some((cookie) => cookie.startsWith('better-auth.session_token='))).toBe(true);
      expect(cookies.filter((cookie) => /;\s*secure/i.test(cookie))).toEqual([]);
      const session = await fetch(`${origin}/api/auth/get-session`, {
        headers: { cookie: cookies.map((cookie) => cookie.split(';', 1)[0]).join('; ') },
      });
      expect(((await session.json()) as { user: { email: string } }).user.email).toBe(account.email);
      // no AUTH_SECRET given: the embedded start keeps the one it made in DATA_DIR
      expect(fs.existsSync(path.join(dataDir, 'auth-secret'))).toBe(true);
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exit).toBe(0);
  }, 120_000);

  it('TRUST_PROXY=0.0.0.0/0 (issue 27) stops the production start with the message that names it, not a stack', async () => {
    // (::/0 and the rest: env.test.ts)
    const refused = await start(dataDir, { entry: START, env: { TRUST_PROXY: '0.0.0.0/0' } }).catch((error: { output: string; code: number }) => error);
    expect(refused).toMatchObject({ code: 1 });
    const { output } = refused as { output: string };
    expect(output).toContain('TRUST_PROXY: "0.0.0.0/0" (every address, as true) refused');
    expect(output).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('makes DATA_DIR private (issue 10, finding 2): an existing readable tree is fixed at start, and everything it writes is 0700/0600', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'learnlingo-private-'));
    try {
      // A DATA_DIR as an older version left it: world-readable, with a world-writable file.
      fs.chmodSync(dir, 0o777);
      fs.mkdirSync(path.join(dir, 'pglite'), { mode: 0o777 });
      fs.chmodSync(path.join(dir, 'pglite'), 0o777);
      fs.writeFileSync(path.join(dir, 'old-file'), 'x');
      fs.chmodSync(path.join(dir, 'old-file'), 0o666);

      const server = await start(dir);
      try {
        // the start created the database, migrated and seeded it: the WAL and data files are written
        expect((await fetch(`${server.origin}/api/health`)).status).toBe(200);
        const loose: string[] = [];
        let files = 0;
        const visit = (entry: string) => {
          const stat = fs.lstatSync(entry);
          const mode = stat.mode & 0o777;
          if (stat.isDirectory()) {
            if (mode !== 0o700) loose.push(`${entry} ${mode.toString(8)}`);
            for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
          } else {
            files += 1;
            if (mode !== 0o600) loose.push(`${entry} ${mode.toString(8)}`);
          }
        };
        visit(dir);
        expect(loose).toEqual([]);
        expect(files).toBeGreaterThan(100);
        for (const name of ['.lock', 'auth-secret', 'old-file']) expect(fs.existsSync(path.join(dir, name))).toBe(true);
        expect(server.output()).toContain('files and directories private to this user');
      } finally {
        server.child.kill('SIGTERM');
      }
      expect(await server.exit).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
