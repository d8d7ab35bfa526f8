/** The school console (/admin, issue 24) and the invitation page (/invite): what their page module uses. Loaded with that page only. */
export { ConsoleLayout } from './console-layout';
export { consoleTabOf, type ConsoleTab } from './console-layout-tabs';
export { InviteAcceptPage, prefetchInvite } from './invite-accept';
/** For the Teachers tab's edit screen: a profile's invitations, and the form to invite its teacher. */
export { InviteForm } from './invite-form';
export { InviteList } from './invite-list';
/** For a teacher's own profile (/teach/profile): the console's card fields, photo upload and form helpers. */
export { cardValuesOf, flat as flatFieldErrors, issuesOf, TeacherCardFields } from './teacher-form';
export type { UsePhotoUpload } from './teacher-form-photo';
export { useLive } from './teacher-form-fields';
export { fieldErrors, formError } from './teachers-api';
