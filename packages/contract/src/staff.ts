import { z } from 'zod';
import { emailSchema, nameSchema, passwordSchema } from './auth.js';
import { hasControlCharacter } from './rules.js';
import { ROLES } from './roles.js';
import { teacherIdSchema } from './teachers.js';

/*
 * The staff console's API (issue 24, decision 109): People, Activity and Invitations under
 * /api/staff, admins only (401 without a session, 403 for any other role).
 */

/** A page number in a query string: 1…10,000 (digits only, capped before the pattern). */
const pageNumber = z
  .string()
  .max(5, 'must be a page number')
  .regex(/^[1-9][0-9]*$/, 'must be a page number')
  .transform(Number)
  .pipe(z.number().int().max(10_000, 'must be at most 10000'))
  .optional();

/** A free-text search: at most 100 characters, no control characters. */
const searchText = z
  .string()
  .max(100, { error: 'must be at most 100 characters', abort: true })
  .refine((v) => !hasControlCharacter(v), 'must not hold control characters')
  .transform((v) => v.trim())
  .optional();

export const roleSchema = z.enum(ROLES, { error: 'must be learner, teacher or admin' });

// ---------------------------------------------------------------- people

export const PEOPLE_PAGE_SIZE = 20;

export const peopleQuerySchema = z.object({ q: searchText, page: pageNumber }).strict();
export type PeopleQuery = z.input<typeof peopleQuerySchema>;

export const personSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: roleSchema,
  /** deactivated: cannot sign in */
  banned: z.boolean(),
  createdAt: z.string(),
  /** the catalogue profile a teacher account is bound to */
  teacherId: z.string().nullable(),
});
export type Person = z.infer<typeof personSchema>;

export const peoplePageSchema = z.object({
  items: z.array(personSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type PeoplePage = z.infer<typeof peoplePageSchema>;

/** An account's id as better-auth makes them (letters and digits, 32 here; capped). */
export const userIdSchema = z.string().min(1).max(64, { error: 'Invalid user id', abort: true }).regex(/^[A-Za-z0-9_-]+$/, 'Invalid user id');
export const personParamsSchema = z.object({ id: userIdSchema });

export const setRoleSchema = z.object({ role: roleSchema }).strict();
export const setActiveSchema = z.object({ active: z.boolean({ error: 'must be true or false' }) }).strict();

// ---------------------------------------------------------------- activity

export const ACTIVITY_PAGE_SIZE = 30;

export const activityQuerySchema = z
  .object({
    /** the id of the last row of the page before (keyset paging, newest first) */
    before: z
      .string()
      .max(18, 'must be an activity id')
      .regex(/^[1-9][0-9]*$/, 'must be an activity id')
      .transform(Number)
      .optional(),
  })
  .strict();

export const activityEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actor: z.object({ id: z.string().nullable(), name: z.string(), email: z.string() }),
  action: z.string(),
  /** what was changed; `label` names it as it is now (an account's name and e-mail, a teacher's name), null once gone */
  subject: z.object({ type: z.string(), id: z.string(), label: z.string().nullable() }),
  before: z.unknown(),
  after: z.unknown(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

export const activityPageSchema = z.object({
  items: z.array(activityEntrySchema),
  /** `before` for the next (older) page; null: this is the last */
  next: z.number().int().nullable(),
  total: z.number().int(),
});
export type ActivityPage = z.infer<typeof activityPageSchema>;

// ---------------------------------------------------------------- invitations

/** How long an invitation's link works. */
export const INVITATION_DAYS = 7;

export const invitationStatusSchema = z.enum(['pending', 'used', 'revoked', 'expired']);
export type InvitationStatus = z.infer<typeof invitationStatusSchema>;

export const invitationSchema = z.object({
  id: z.string(),
  teacherId: z.string(),
  email: z.string(),
  status: invitationStatusSchema,
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const teacherInvitationsSchema = z.object({
  /** the account bound to the profile, if any */
  account: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
  items: z.array(invitationSchema),
});
export type TeacherInvitations = z.infer<typeof teacherInvitationsSchema>;

export const teacherInvitationParamsSchema = z.object({ teacherId: teacherIdSchema });
export const inviteTeacherSchema = z.object({ email: emailSchema }).strict();
export type InviteTeacherInput = z.infer<typeof inviteTeacherSchema>;
export const invitationParamsSchema = z.object({ id: z.uuid({ error: 'Invalid invitation id' }) });

/** An invitation link's token (32 base64url characters, 192 random bits; capped before the pattern). */
export const invitationTokenSchema = z
  .string({ error: 'The invitation link is incomplete' })
  .max(64, { error: 'The invitation link is not valid', abort: true })
  .regex(/^[A-Za-z0-9_-]{32}$/, 'The invitation link is not valid');
export const invitationTokenParamsSchema = z.object({ token: invitationTokenSchema });

/** What the invitation page shows before the password is set. */
export const invitationPreviewSchema = z.object({
  email: z.string(),
  teacherName: z.string(),
  /** whether an account with this e-mail exists already (it then signs in instead of naming itself) */
  accountExists: z.boolean(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** Accepting: a new account names itself and sets a password; an existing one proves its password. */
export const acceptInvitationSchema = z
  .object({ token: invitationTokenSchema, name: nameSchema.optional(), password: passwordSchema })
  .strict();
export type AcceptInvitationInput = z.infer<typeof acceptInvitationSchema>;
