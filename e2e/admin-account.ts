/** The school admin on the test servers: seed-admin.mjs creates it (E2E_ADMIN), admin-session.ts signs in as it. */
export const E2E_ADMIN = { email: 'school-admin@example.com', password: 'admin-secret-e2e-1' };
