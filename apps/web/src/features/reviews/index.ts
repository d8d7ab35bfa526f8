/**
 * Reviews of lessons (issue 26): the learner's rating form under a past lesson (My lessons,
 * the private link), a review as shown, and the API of the teacher's and the school's pages.
 * The teacher page reads its reviews through the zod-free `public.ts` instead.
 */
export { LessonReviewBox } from './components/lesson-review-box';
export { ReviewView, reviewDate } from './components/review-view';
export {
  reviewsApi,
  useGetReviewStatesQuery,
  useGetReviewStateByTokenQuery,
  useGetTeachReviewsQuery,
  useReplyToReviewMutation,
  useGetAdminReviewsQuery,
  useHideReviewMutation,
  useGetImportedReviewsQuery,
  useHideImportedReviewMutation,
} from './api/reviews-api';
export type { LessonRef } from './api/reviews-api';
