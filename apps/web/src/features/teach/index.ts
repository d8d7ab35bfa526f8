/** The teacher's own pages under /teach (issue 25: Profile, Hours; issue 26: Reviews), for their lazy page module. */
export { prefetchTeacher, TEACH_TABS, TeachLayout, teachTabOf, type TeachTab } from './components/teach-layout';
export { useGetTeachProfileQuery } from './profile-api';
