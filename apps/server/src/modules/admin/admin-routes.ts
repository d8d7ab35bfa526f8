import type { FastifyInstance } from 'fastify';
import { adminBookingsRoutes } from './admin-bookings-routes.js';
import { adminSchoolRoutes } from './admin-school-routes.js';
import { adminTeachersRoutes } from './admin-teachers-routes.js';
import { readSchool, type School, type SchoolDefaults } from './school-settings.js';

export interface AdminRoutesOptions {
  /** the environment's school (SCHOOL_*): what a fresh database follows */
  defaults: SchoolDefaults;
  now: () => number;
}

/** The console's Teachers, Bookings and School settings under /api/staff (issue 24), admins only. */
export async function adminRoutes(app: FastifyInstance, { defaults, now }: AdminRoutesOptions): Promise<void> {
  const school = () => readSchool(app.db.orm, defaults, { now: now() });
  await adminTeachersRoutes(app);
  await adminBookingsRoutes(app, {
    now,
    schoolEmail: async () => (await school()).email,
    schoolSchedule: async () => (await school()).schedule,
  });
  await adminSchoolRoutes(app, defaults, now);
}

/** The school now, for the booking routes (hours and closures the console set). */
export const schoolReader = (app: FastifyInstance, defaults: SchoolDefaults, now: () => number) => (): Promise<School> =>
  readSchool(app.db.orm, defaults, { now: now() });
