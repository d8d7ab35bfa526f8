import type { FastifyInstance } from 'fastify';
import { adminBookingsRoutes } from './admin-bookings-routes.js';
import { adminSchoolRoutes } from './admin-school-routes.js';
import { adminTeachersRoutes } from './admin-teachers-routes.js';
import type { SchoolSource } from './school-settings.js';

export interface AdminRoutesOptions {
  /** the school's settings: the console's over the environment's (decision 119) */
  school: SchoolSource;
  now: () => number;
}

/** The console's Teachers, Bookings and School settings under /api/staff (issue 24), admins only. */
export async function adminRoutes(app: FastifyInstance, { school, now }: AdminRoutesOptions): Promise<void> {
  await adminTeachersRoutes(app);
  await adminBookingsRoutes(app, { now, school: () => school.settings() });
  await adminSchoolRoutes(app, school);
}
