import querystring from 'node:querystring';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { ApiAnswer } from '@learnlingo/contract/plain';
import { notModified } from '../catalogue/index.js';

/**
 * A public reader's answer: a 200 with its headers, and its JSON as text (`body`) or as a value
 * the route's 200 schema serialises (`value`, as Fastify would).
 */
export type ReadAnswer = { headers: Record<string, string>; body: string } | { headers: Record<string, string>; value: unknown };

const JSON_TYPE = 'application/json; charset=utf-8';

/** A route's schema as given to Fastify: the direct entry validates with the same zod schemas. */
interface ReadSchema {
  params?: z.ZodType;
  querystring?: z.ZodType;
  response: { 200: z.ZodType };
}

interface DirectRoute {
  segments: string[];
  /** the route as Fastify knows it (`/api/teachers/:id`) */
  url: string;
  schema: ReadSchema;
  read: (input: { params: never; query: never }) => Promise<ReadAnswer>;
  serialise: (value: unknown) => string;
}

/** find-my-way's limit here (app.ts routerOptions.maxParamLength): longer is no route's. */
const PARAM_MAX = 200;

/**
 * The app's public GET routes that the server's own pages read (issue 29), answerable in process
 * without Fastify's inject(): no request and reply objects, no hooks, no JSON text made again.
 * Each is a route registered with Fastify as well, and both call the same reader with the same
 * schema's parsed input: the route through Fastify's validator, the direct entry through the
 * same zod schema (`safeParse`, as fastify-type-provider-zod's validatorCompiler). What the
 * direct entry does not answer — another method, a URL no reader has, input the schema refuses,
 * a reader that throws (404, 410, a database error) — is left to inject(), which gives the
 * route's own error answer: the rules and the error bodies have one home.
 */
export class DirectApi {
  private readonly routes: DirectRoute[] = [];

  constructor(private readonly app: FastifyInstance) {}

  /** Registers a reader for `url` (static routes before parametric ones, as find-my-way matches). */
  get<P, Q>(url: string, schema: ReadSchema, read: (input: { params: P; query: Q }) => Promise<ReadAnswer>): void {
    const response = schema.response[200];
    this.routes.push({
      segments: url.split('/'),
      url,
      schema,
      read: read as DirectRoute['read'],
      serialise: serializerCompiler({ schema: response, method: 'GET', url, httpStatus: '200' } as never) as (value: unknown) => string,
    });
    // static first
    this.routes.sort((a, b) => Number(a.url.includes(':')) - Number(b.url.includes(':')));
  }

  /**
   * A public GET route: `read` registered with Fastify at `url` on the app this entry belongs to
   * (the routes' modules are given the root app), where `schema` validates its input and
   * documents it; sendAnswer sends the answer) and as this entry's reader of the same URL.
   */
  serve<P, Q>(url: string, schema: ReadSchema & { tags?: string[]; summary?: string; description?: string }, read: (input: { params: P; query: Q }) => Promise<ReadAnswer>): void {
    this.app.get(url, { schema }, async (request, reply) =>
      sendAnswer(request, reply, await read({ params: request.params as P, query: request.query as Q })),
    );
    this.get(url, schema, read);
  }

  /** The answer to a GET of `url` (path and query), or undefined: ask inject(). */
  async answer(method: string, url: string): Promise<ApiAnswer | undefined> {
    if (method !== 'GET') return undefined;
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const found = this.match(path);
    if (!found) return undefined;
    const { route, params } = found;
    const parsedParams = route.schema.params ? route.schema.params.safeParse(params) : { success: true as const, data: {} };
    // (Fastify's router splits the query the same way: fast-querystring, node:querystring's rules)
    const query = queryAt === -1 || queryAt === url.length - 1 ? {} : { ...querystring.parse(url.slice(queryAt + 1)) };
    const parsedQuery = route.schema.querystring ? route.schema.querystring.safeParse(query) : { success: true as const, data: {} };
    if (!parsedParams.success || !parsedQuery.success) return undefined;
    let answer: ReadAnswer;
    try {
      answer = await route.read({ params: parsedParams.data as never, query: parsedQuery.data as never });
    } catch {
      return undefined;
    }
    const body = 'body' in answer ? answer.body : route.serialise(answer.value);
    return { status: 200, headers: { ...answer.headers, 'content-type': JSON_TYPE }, body };
  }

  private match(path: string): { route: DirectRoute; params: Record<string, string> } | undefined {
    const segments = path.split('/');
    for (const route of this.routes) {
      if (route.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let matches = true;
      for (let i = 0; i < segments.length && matches; i += 1) {
        const expected = route.segments[i] as string;
        const given = segments[i] as string;
        if (expected.startsWith(':')) {
          // an encoded or overlong parameter: the router's decoding and limits are its own
          if (given.includes('%') || given.length > PARAM_MAX || given === '') matches = false;
          else params[expected.slice(1)] = given;
        } else matches = expected === given;
      }
      if (!matches) continue;
      // a static route of the same path registered elsewhere is the router's to choose
      if (route.url.includes(':') && this.app.hasRoute({ method: 'GET', url: path })) return undefined;
      return { route, params };
    }
    return undefined;
  }
}

const directApis = new WeakMap<FastifyInstance, DirectApi>();

/** The app's direct entry (one per app; the routes' modules add their readers to it). */
export function directApiOf(app: FastifyInstance): DirectApi {
  let direct = directApis.get(app);
  if (!direct) directApis.set(app, (direct = new DirectApi(app)));
  return direct;
}

/** A reader's answer sent by its route: its headers, a 304 for a matching ETag, its JSON. */
function sendAnswer(request: FastifyRequest, reply: FastifyReply, answer: ReadAnswer): FastifyReply {
  reply.headers(answer.headers);
  const etag = answer.headers.etag;
  if (etag !== undefined && notModified(request, etag)) return reply.code(304).send();
  if ('body' in answer) return reply.type(JSON_TYPE).send(answer.body);
  // (through the route's serializer, as a value the handler returned)
  return reply.send(answer.value);
}
