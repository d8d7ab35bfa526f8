/**
 * The teacher page's reviews (a lazy entry of the reviews feature, zod-free): the server-paged
 * list with its order and page links, and its query for the page's prefetch.
 */
export { TeacherReviewsSection, readReviewsQuery } from './components/teacher-reviews-section';
export { publicReviewsApi } from './api/public-reviews-api';
