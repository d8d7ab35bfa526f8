import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { installProcessGuard, verdictFor, type GuardLogger } from './process-guard.js';

/** A driver error as Drizzle hands it on: its own error, the driver's in `cause`. */
const wrapped = (cause: unknown) =>
  Object.assign(new Error('Failed query: insert into booking (email) values ($1)\nparams: ada@example.com'), { cause });
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });

describe('verdictFor: what an error nobody handled does to the process', () => {
  it.each([
    ['a backend terminated by an administrator or a pooler (57P01)', pgError('57P01', 'terminating connection due to administrator command')],
    ['a crashed server (57P02), Drizzle-wrapped', wrapped(pgError('57P02', 'terminating connection because of crash of another server process'))],
    ['a server starting up (57P03)', pgError('57P03', 'the database system is starting up')],
    ['a connection exception (08006)', pgError('08006', 'connection failure')],
    ['a reset socket', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ["pg's socket closed under a query", new Error('Connection terminated unexpectedly')],
    ["pg's wait for a connection timed out", new Error('timeout exceeded when trying to connect')],
  ])('survives %s', (_name, error) => {
    expect(verdictFor(error)).toBe('survive');
  });

  it.each([
    ["postgres.js 3.4.9's TypeError from its connection code", new TypeError("Cannot read properties of null (reading 'write')")],
    ['a unique violation nobody caught (23505)', wrapped(pgError('23505', 'duplicate key value violates unique constraint'))],
    ['a thrown string', 'boom'],
    ['a message that only mentions a connection', new Error('Connection terminated unexpectedly, said the user')],
  ])('exits after %s', (_name, error) => {
    expect(verdictFor(error)).toBe('exit');
  });
});

describe('installProcessGuard', () => {
  const setUp = () => {
    const target = new EventEmitter();
    const lines: { level: 'warn' | 'fatal'; object: Record<string, unknown>; message: string }[] = [];
    const logger: GuardLogger = {
      warn: (object, message) => lines.push({ level: 'warn', object, message }),
      fatal: (object, message) => lines.push({ level: 'fatal', object, message }),
    };
    const exit = vi.fn();
    const uninstall = installProcessGuard({ logger: () => logger, exit, target });
    return { target, lines, exit, uninstall };
  };

  it('logs a database connection error as a warning and keeps the process', () => {
    const { target, lines, exit } = setUp();
    target.emit('uncaughtException', wrapped(pgError('57P01', 'terminating connection due to administrator command')));
    target.emit('unhandledRejection', new Error('Connection terminated unexpectedly'));
    expect(exit).not.toHaveBeenCalled();
    expect(lines.map((l) => [l.level, l.object.origin])).toEqual([
      ['warn', 'uncaughtException'],
      ['warn', 'unhandledRejection'],
    ]);
    // no query parameters, and no stack for an outage
    expect(JSON.stringify(lines)).not.toContain('ada@example.com');
    expect(JSON.stringify(lines)).not.toContain('"stack"');
  });

  it('logs any other error as fatal, with its stack but without the query parameters, and exits once', () => {
    const { target, lines, exit } = setUp();
    target.emit('uncaughtException', new TypeError("Cannot read properties of null (reading 'write')"));
    target.emit('unhandledRejection', wrapped(pgError('23505', 'duplicate key value violates unique constraint')));
    expect(exit).toHaveBeenCalledTimes(1);
    expect(lines.map((l) => [l.level, l.object.origin])).toEqual([
      ['fatal', 'uncaughtException'],
      ['fatal', 'unhandledRejection'],
    ]);
    const [first, second] = lines;
    expect(first?.object.err).toMatchObject({ type: 'TypeError', stack: expect.stringContaining('TypeError') });
    expect(JSON.stringify(second)).not.toContain('ada@example.com');
    expect(JSON.stringify(second)).toContain('params: [redacted]');
  });

  it('stops listening once uninstalled', () => {
    const { target, exit, uninstall } = setUp();
    uninstall();
    expect(target.listenerCount('uncaughtException')).toBe(0);
    expect(target.listenerCount('unhandledRejection')).toBe(0);
    expect(exit).not.toHaveBeenCalled();
  });
});
