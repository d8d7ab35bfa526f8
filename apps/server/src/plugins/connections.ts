import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';

/** At most one log line per this many ms while connections are being dropped. */
const DROP_LOG_EVERY_MS = 10_000;

/**
 * Caps the open connections (MAX_CONNECTIONS): past it, Node closes each new connection at
 * once, so a flood of slow clients cannot take every file descriptor — the process keeps
 * the ones it needs for its database and its current users. Each time the cap is hit the
 * log says so (then at most once per 10 s, with how many were dropped meanwhile).
 */
export function limitConnections(app: FastifyInstance, maxConnections: number): void {
  app.server.maxConnections = maxConnections;
  let dropped = 0;
  let lastLog = 0;
  app.server.on('drop', () => {
    dropped += 1;
    const now = Date.now();
    if (now - lastLog < DROP_LOG_EVERY_MS) return;
    lastLog = now;
    app.log.warn(`connection cap hit: ${maxConnections} open connections (MAX_CONNECTIONS); dropped ${dropped} new connection(s)`);
    dropped = 0;
  });
  const files = openFilesLimit();
  if (files !== null && maxConnections + 256 > files) {
    app.log.warn(
      `MAX_CONNECTIONS=${maxConnections} is close to this process's open-files limit (${files}): ` +
        'lower MAX_CONNECTIONS or raise the limit (ulimit -n), so the database keeps the descriptors it needs',
    );
  }
}

/** The soft limit on open files, where the system tells (Linux); null elsewhere. */
function openFilesLimit(): number | null {
  try {
    const match = /^Max open files\s+(\d+)/m.exec(fs.readFileSync('/proc/self/limits', 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}
