import type { Facets, Teacher, TeacherFilters, TeachersPage } from '@learnlingo/contract';
import { api } from '../../../lib/api';
import type { ListQuery } from '../lib/catalogue-url';
import { filtersToSearch, guardSchema, isFacets, isTeacher, isTeachersPage } from '@learnlingo/contract/plain';

/** A page cursor: null asks for the first page. */
type Cursor = string | null;

export const teachersApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The catalogue, one server page (4 teachers) at a time. Cached per query (search,
     * filters, order, and the cursor of the "Load more" link the page was opened from, where
     * its first page starts); "Load more" fetches the page at the last page's `nextCursor`.
     */
    getTeachers: build.infiniteQuery<TeachersPage, ListQuery, Cursor>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor,
      },
      query: ({ queryArg, pageParam }) => ({
        url: '/teachers',
        params: { ...Object.fromEntries(filtersToSearch(queryArg)), cursor: pageParam ?? queryArg.cursor },
      }),
      responseSchema: guardSchema(isTeachersPage, 'page of teachers'),
      providesTags: ['Teachers'],
    }),
    getTeacher: build.query<Teacher, string>({
      query: (id) => `/teachers/${encodeURIComponent(id)}`,
      responseSchema: guardSchema(isTeacher, 'teacher'),
      providesTags: (_result, _error, id) => [{ type: 'Teacher', id }],
    }),
    /** Languages, levels and prices, with how many teachers each would leave given the other filters. */
    getFacets: build.query<Facets, TeacherFilters>({
      query: (filters) => ({
        url: '/teachers/facets',
        params: Object.fromEntries(filtersToSearch({ ...filters, sort: undefined })),
      }),
      responseSchema: guardSchema(isFacets, 'list of filter options'),
      providesTags: ['Facets'],
    }),
  }),
});

export const { useGetTeachersInfiniteQuery, useGetTeacherQuery, useGetFacetsQuery } = teachersApi;
