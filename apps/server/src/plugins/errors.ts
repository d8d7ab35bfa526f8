import type { ApiError, ApiErrorCode } from '@learnlingo/contract';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';

/** An error a route throws on purpose: it becomes `{error: {code, message, fields?}}`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export function sendError(
  reply: FastifyReply,
  statusCode: number,
  code: ApiErrorCode,
  message: string,
  fields?: Record<string, string>,
) {
  const body: ApiError = { error: { code, message, ...(fields ? { fields } : {}) } };
  return reply.code(statusCode).type('application/json; charset=utf-8').send(JSON.stringify(body));
}

const CODE_BY_STATUS: Record<number, ApiErrorCode> = {
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * SQLSTATEs of a database that is going away or not there yet: connection exceptions (08…),
 * terminated by an administrator or a pooler (57P01), a crashed server's other backends
 * (57P02), a server starting or shutting down (57P03), no connection slot left (53300).
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[1-3]|53300)$/;
/** Socket errors on the way to the database (refused, reset, unreachable, timed out). */
const UNAVAILABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * node-postgres names some failures only in the message: the socket closed under a query
 * ("Connection terminated unexpectedly"), a client whose connection failed, no connection
 * within connectionTimeoutMillis, the pool already ended (the server is shutting down).
 */
const UNAVAILABLE_MESSAGE =
  /^(Connection terminated( unexpectedly| due to connection timeout)?|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end on the pool)$/;

/**
 * The database could not be reached (connection refused, lost or terminated, the server
 * restarting or failing over, the pool shut): 503 with Retry-After, not a bug. Drizzle wraps
 * the driver's error in `cause`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Seconds a client is asked to wait after a 503: a restart or a failover takes a few. */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

/**
 * The app's logger. Request logs hold method, URL, host and address only (pino's
 * defaults: no body, no headers); redaction is the second line of defence for anything
 * that would carry a credential or a person's data under a well-known key.
 */
export function loggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  if (level === 'silent' && !stream) return false;
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'res.headers["set-cookie"]',
        'err.params',
        'err.parameters',
        '*.password',
        '*.email',
        '*.phone',
        '*.fullName',
      ],
      censor: '[redacted]',
    },
  };
}

/** Drizzle's query errors end their message with `params: …` — the request's values. */
const withoutParams = (text: string) => text.replace(/\nparams: [\s\S]*?(?=\n {4}at |$)/, '\nparams: [redacted]');

/**
 * An error as the log may hold it. A failed query's parameters are the request's values
 * (names, e-mails, phone numbers): they are left out of the message, the stack and the
 * error's own fields; the query text, codes and causes stay, so the bug can still be found.
 */
export function loggableError(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: typeof error === 'string' ? error : 'non-Error thrown' };
  const out: Record<string, unknown> = {
    type: error.name,
    message: withoutParams(error.message),
    ...(error.stack ? { stack: withoutParams(error.stack) } : {}),
  };
  const e = error as unknown as Record<string, unknown>;
  // not `detail`: PostgreSQL puts the offending values there ("Key (email)=(…) already exists")
  for (const key of ['code', 'severity', 'routine', 'query', 'statusCode']) {
    if (typeof e[key] === 'string' || typeof e[key] === 'number') out[key] = e[key];
  }
  if (error.cause !== undefined && depth < 3) out.cause = loggableError(error.cause, depth + 1);
  return out;
}

function withoutStacks(logged: Record<string, unknown>): Record<string, unknown> {
  const { stack: _stack, cause, ...rest } = logged;
  return cause && typeof cause === 'object' ? { ...rest, cause: withoutStacks(cause as Record<string, unknown>) } : rest;
}

/** A database outage's error as the log holds it: loggableError without the stacks (an outage logs one per request). */
export const loggableOutage = (error: unknown) => withoutStacks(loggableError(error));

/**
 * Fastify's answers that bypass the app's hooks and error handler, in the app's shape and
 * with its security headers: a URL that cannot be decoded (`%ZZ`) or with a parameter past
 * maxParamLength (414), and Node's raw replies to a request it cannot parse (431 headers too
 * large, 408 too slow, 400). None echoes the request back.
 */
export function frameworkErrorOptions(
  securityHeaders: [string, string][],
): Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> {
  return {
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
      for (const [name, value] of securityHeaders) reply.header(name, value);
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return sendError(reply, 414, 'URI_TOO_LONG', 'URL is too long');
      return sendError(reply, 400, 'VALIDATION_ERROR', 'Malformed URL');
    },
    clientErrorHandler: (error: NodeJS.ErrnoException, socket: Socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const [status, code, message] =
        error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'REQUEST_TIMEOUT', 'The request took too long to arrive']
          : error.code === 'HPE_HEADER_OVERFLOW'
            ? [431, 'HEADERS_TOO_LARGE', 'Request headers are too large']
            : [400, 'VALIDATION_ERROR', 'Malformed request'];
      const body = JSON.stringify({ error: { code, message } } satisfies ApiError);
      if (socket.writable) {
        const headers = [
          `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
          'content-type: application/json; charset=utf-8',
          `content-length: ${Buffer.byteLength(body)}`,
          'connection: close',
          ...securityHeaders.map(([name, value]) => `${name}: ${value}`),
        ];
        socket.write(`${headers.join('\r\n')}\r\n\r\n${body}`);
      }
      socket.destroy();
    },
  };
}

/**
 * Once the app starts closing, a request that still arrives (on a kept-alive connection)
 * gets a 503 asking the client to go elsewhere and the connection closed. Registered after
 * the security headers' hook, so the answer carries them.
 */
export function registerShutdownAnswer(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('connection', 'close');
    return sendError(reply, 503, 'SERVICE_UNAVAILABLE', 'The server is shutting down; please try again');
  });
}

const CONTEXT_NAMES: Record<string, string> = {
  body: 'request body',
  querystring: 'query string',
  params: 'path parameters',
  headers: 'request headers',
};

/** Whether the app's database (when it has one) answers a ping: asked only of what would be a 500. */
async function databaseAnswers(app: FastifyInstance): Promise<boolean> {
  return app.hasDecorator('db') ? app.db.ping() : true;
}

/**
 * One error handler for the whole app: every error leaves as JSON
 * `{error: {code, message, fields?}}`; client faults get their 4xx, and only a real bug
 * is a 500, logged, without its stack in the response.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(async (error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return sendError(reply, error.statusCode, error.code, error.message, error.fields);
    }

    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string> = {};
      for (const issue of error.validation) {
        const params = issue.params as { keys?: unknown };
        if (issue.keyword === 'unrecognized_keys' && Array.isArray(params.keys)) {
          const prefix = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
          for (const key of params.keys) fields[prefix ? `${prefix}.${String(key)}` : String(key)] ??= 'Unknown field';
          continue;
        }
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
        if (field) fields[field] ??= issue.message ?? 'Invalid value';
      }
      const where = CONTEXT_NAMES[error.validationContext ?? ''] ?? 'request';
      const first = error.validation[0]?.message;
      const message = Object.keys(fields).length > 0 ? `Invalid ${where}` : `Invalid ${where}: ${first ?? 'bad value'}`;
      return sendError(reply, 400, 'VALIDATION_ERROR', message, Object.keys(fields).length > 0 ? fields : undefined);
    }

    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500 && !isResponseSerializationError(error)) {
      // Fastify's own client errors (bad JSON, body too large, wrong content type…).
      const message =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'Request body is too large' : error.message;
      return sendError(reply, status, CODE_BY_STATUS[status] ?? 'VALIDATION_ERROR', message);
    }

    // An error of a shape not known as an outage's is one too when the database does not
    // answer now (a driver's or a library's own wording of a lost connection).
    const databaseUnavailable = isDatabaseUnavailable(error) || !(await databaseAnswers(app));
    if (status === 503 || databaseUnavailable) {
      // an outage, not a bug: a warning without stacks (there is one per failed request)
      request.log.warn({ error: loggableOutage(error) }, databaseUnavailable ? 'database unavailable: 503' : 'unavailable: 503');
      reply.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S));
      return sendError(reply, 503, 'SERVICE_UNAVAILABLE', 'Service temporarily unavailable; please try again in a moment');
    }
    request.log.error({ err: loggableError(error) }, 'request failed');
    return sendError(reply, 500, 'INTERNAL_ERROR', 'Internal server error');
  });
}
