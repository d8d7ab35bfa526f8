import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { DOCS_PREFIX } from './security-headers.js';

/** OpenAPI generated from the routes' contract schemas: UI at /api/docs, JSON at /api/docs/json. */
export async function registerDocs(app: FastifyInstance, options: { publicOrigin: string }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'LearnLingo API',
        description:
          'The catalogue of teachers, favourites and trial-lesson bookings. Accounts live under /api/auth (better-auth: ' +
          'POST sign-up/email, POST sign-in/email, POST sign-out, GET get-session). Errors: `{error: {code, message, fields?}}`.',
        version: '1.0.0',
      },
      servers: [{ url: options.publicOrigin }],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'better-auth.session_token' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, staticCSP: false });
}
