/**
 * The school's first admin on the main e2e server: `npm run admin -- add` makes it before the
 * server starts (start-server.mjs --admin); admin-console.spec.ts sets this password from its e-mail.
 */
export const E2E_ADMIN = { email: 'head@school.example', name: 'Hedda Head', password: 'head-pass-e2e-1' };
