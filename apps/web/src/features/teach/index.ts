/** The teacher's own pages under /teach (issue 26: the Reviews tab), for their lazy page module. */
export { TeachLayout } from './components/teach-layout';
export { TeachReviews } from './components/teach-reviews';
export { TeachLessons, prefetchTeachLessons, useTeachLessonsAccess } from './components/lessons-tab';
