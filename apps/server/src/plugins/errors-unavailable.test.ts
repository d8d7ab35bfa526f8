import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions, registerErrorHandling, UNAVAILABLE_RETRY_AFTER_S } from './errors.js';

/** An app whose one route throws `error`, logging into `lines`. */
async function throwing(error: unknown) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const app = Fastify({ logger: loggerOptions('info', stream) });
  registerErrorHandling(app);
  app.get('/fails', () => {
    throw error;
  });
  const response = await app.inject({ method: 'GET', url: '/fails' });
  await app.close();
  return { response, log: lines.join('') };
}

const drizzleError = (cause: unknown) =>
  Object.assign(new Error('Failed query: insert into booking (email) values ($1)\nparams: ada@example.com'), { cause });
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });

describe('a database that went away answers 503 with Retry-After (issue 27)', () => {
  it.each([
    ['a terminated backend (57P01)', drizzleError(pgError('57P01', 'terminating connection due to administrator command'))],
    ['a server starting up (57P03)', drizzleError(pgError('57P03', 'the database system is starting up'))],
    ['a connection exception (08006)', drizzleError(pgError('08006', 'connection failure'))],
    ['a reset socket', drizzleError(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ["pg's socket closed under the query", drizzleError(new Error('Connection terminated unexpectedly'))],
    ["pg's client that already lost its connection", new Error('Client has encountered a connection error and is not queryable')],
    ['no free connection in time', new Error('timeout exceeded when trying to connect')],
  ])('%s', async (_name, error) => {
    const { response, log } = await throwing(error);
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe(String(UNAVAILABLE_RETRY_AFTER_S));
    expect(response.json()).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) } });
    expect(response.body).not.toContain('at ');
    // a warning, without the stack and without the values the query carried
    expect(log).toContain('"level":40');
    expect(log).toContain('database unavailable: 503');
    expect(log).not.toContain('ada@example.com');
    expect(log).not.toContain('"stack"');
  });

  it.each([
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a constraint nobody expected (23505)', drizzleError(pgError('23505', 'duplicate key value violates unique constraint'))],
    ['a message that only starts like a connection error', new Error('Connection terminated unexpectedly by the user')],
  ])('but %s is a 500 without Retry-After, logged as an error with its stack', async (_name, error) => {
    const { response, log } = await throwing(error);
    expect(response.statusCode).toBe(500);
    expect(response.headers['retry-after']).toBeUndefined();
    expect(log).toContain('"level":50');
    expect(log).toContain('"stack"');
    expect(log).not.toContain('ada@example.com');
  });
});
