import type { Facets, Teacher, TeacherFilters, TeachersPage } from '@learnlingo/contract';
import { api } from '../../../lib/api';
import { guardSchema, isFacets, isTeacher, isTeachersPage } from '@learnlingo/contract/plain';

/** A page cursor: null asks for the first page. */
type Cursor = string | null;

export const teachersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The catalogue, one server page (4 teachers) at a time. Cached per filter set;
     * "Load more" fetches the page at the last page's `nextCursor`.
     */
    getTeachers: build.infiniteQuery<TeachersPage, TeacherFilters, Cursor>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor,
      },
      query: ({ queryArg, pageParam }) => ({
        url: '/teachers',
        params: { ...queryArg, cursor: pageParam ?? undefined },
      }),
      responseSchema: guardSchema(isTeachersPage, 'page of teachers'),
      providesTags: ['Teachers'],
    }),
    getTeacher: build.query<Teacher, string>({
      query: (id) => `/teachers/${encodeURIComponent(id)}`,
      responseSchema: guardSchema(isTeacher, 'teacher'),
      providesTags: (_result, _error, id) => [{ type: 'Teacher', id }],
    }),
    getFacets: build.query<Facets, void>({
      query: () => '/teachers/facets',
      responseSchema: guardSchema(isFacets, 'list of filter options'),
      providesTags: ['Facets'],
    }),
  }),
});

export const { useGetTeachersInfiniteQuery, useGetTeacherQuery, useGetFacetsQuery } = teachersApi;
