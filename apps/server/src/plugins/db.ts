import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The database handle; opened and closed by whoever built the app (server.ts, tests). */
    db: Database;
  }
}

export function registerDb(app: FastifyInstance, db: Database): void {
  app.decorate('db', db);
}
