#!/usr/bin/env node
// ReDoS benchmark (issue 10, finding 1), 127.0.0.1 only: catalogue req/s (the same
// repeated query as bench/api.mjs run A) alone, then the same run while one hostile sign-in
// a second sends the 62 KB e-mail `a@` + `a.`×31000 + `@`. With the old quadratic e-mail
// pattern each such request held the server ~1 s (18,739 → 7 req/s); the target is the
// second run within 10 % of the first.
// Usage: node bench/redos.mjs [--engine pglite|postgres] [--count 100000] [--duration 10] [--connections 20]
import autocannon from 'autocannon';
import { arg, catalogueEnv, ensureBuilt, seed, startServer } from './lib.mjs';

const COUNT = Number(arg('count', 100_000));
const DURATION = Number(arg('duration', 10));
const CONNECTIONS = Number(arg('connections', 20));
const ENGINE = arg('engine', 'pglite');
const CATALOGUE = '/api/teachers?language=French&level=B1%20Intermediate&price=40';
const HOSTILE_EMAIL = `a@${'a.'.repeat(31_000)}@`;


async function catalogueLoad(base) {
  const result = await autocannon({ url: base + CATALOGUE, connections: CONNECTIONS, duration: DURATION });
  return {
    reqPerSec: Math.round(result.requests.average),
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/** One hostile sign-in per second until stopped; returns each answer's status and time. */
function hostileSignIns(base) {
  const answers = [];
  let stopped = false;
  const body = JSON.stringify({ email: HOSTILE_EMAIL, password: 'whatever-1' });
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      const res = await fetch(`${base}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: base },
        body,
      });
      await res.arrayBuffer();
      answers.push({ status: res.status, ms: performance.now() - started });
      const wait = 1000 - (performance.now() - started);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return answers;
    },
  };
}

ensureBuilt();
const env = await catalogueEnv(ENGINE, COUNT);
console.log(`[${ENGINE}] preparing ${COUNT} teachers…`);
seed(env, COUNT);
const server = await startServer(env, 3903);
try {
  await catalogueLoad(server.base); // warm-up
  const alone = await catalogueLoad(server.base);
  const hostile = hostileSignIns(server.base);
  const attacked = await catalogueLoad(server.base);
  const answers = await hostile.stop();
  const statuses = [...new Set(answers.map((a) => a.status))].join(', ');
  const slowest = Math.round(Math.max(...answers.map((a) => a.ms)));
  const ratio = attacked.reqPerSec / alone.reqPerSec;
  console.log(`[${ENGINE}] ${COUNT} teachers, ${CONNECTIONS} connections, ${DURATION}s each; GET ${CATALOGUE}`);
  console.table([
    { run: 'catalogue alone', ...alone },
    { run: 'catalogue + 1 hostile sign-in/s', ...attacked, hostileSent: answers.length, hostileStatus: statuses, hostileSlowestMs: slowest },
  ]);
  console.log(`with the hostile sign-ins: ${Math.round(ratio * 100)} % of the catalogue's req/s (target ≥ 90 %) — ${ratio >= 0.9 ? 'met' : 'NOT met'}`);
  if (answers.some((a) => a.status !== 400)) console.log('note: a hostile sign-in was not answered 400');
} finally {
  await server.stop();
}
