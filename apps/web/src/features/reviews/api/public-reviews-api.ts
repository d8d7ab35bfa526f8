import type { PublicReview, ReviewSort, TeacherReviewsPage } from '@learnlingo/contract';
import { guardSchema } from '@learnlingo/contract/plain';
import { api } from '../../../lib/api';

/*
 * The teacher page's reviews (GET /api/teachers/:id/reviews), zod-free like the catalogue's
 * own reads (the teacher page does not load zod): a guard checks the answer's shape.
 */

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNullableString = (v: unknown) => v === null || typeof v === 'string';

function isPublicReview(v: unknown): v is PublicReview {
  return (
    isObject(v) &&
    (v.kind === 'lesson' || v.kind === 'imported') &&
    typeof v.reviewer_name === 'string' &&
    typeof v.reviewer_rating === 'number' &&
    typeof v.comment === 'string' &&
    isNullableString(v.date) &&
    isNullableString(v.language) &&
    isNullableString(v.reply)
  );
}

export function isTeacherReviewsPage(v: unknown): v is TeacherReviewsPage {
  return (
    isObject(v) &&
    typeof v.teacherId === 'string' &&
    typeof v.rating === 'number' &&
    Number.isInteger(v.total) &&
    (v.sort === 'newest' || v.sort === 'lowest') &&
    Number.isInteger(v.page) &&
    Number.isInteger(v.pages) &&
    Array.isArray(v.items) &&
    v.items.every(isPublicReview)
  );
}

export const publicReviewsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** One page of a teacher's visible reviews; the teacher's 'Teacher' tag (a review's change changes the card too). */
    getTeacherReviews: build.query<TeacherReviewsPage, { teacherId: string; sort: ReviewSort; page: number }>({
      query: ({ teacherId, sort, page }) => ({ url: `/teachers/${encodeURIComponent(teacherId)}/reviews`, params: { sort, page } }),
      responseSchema: guardSchema(isTeacherReviewsPage, 'page of reviews'),
      providesTags: (_result, _error, { teacherId }) => [{ type: 'Teacher', id: teacherId }],
    }),
  }),
});

export const { useGetTeacherReviewsQuery } = publicReviewsApi;
