import { peoplePageSchema, personSchema, type PeoplePage, type Person, type Role } from '@learnlingo/contract';
import { api } from '../../lib/api';

/** The console's tags (added here, with the console's code, not to the shell's api). */
export const staffApi = api.enhanceEndpoints({ addTagTypes: ['People', 'Activity', 'Invitations'] });

export interface PeopleArgs {
  q: string;
  page: number;
}

/** People (admins only): /api/staff/people, paged and searched on the server. */
export const peopleApi = staffApi.injectEndpoints({
  endpoints: (build) => ({
    listPeople: build.query<PeoplePage, PeopleArgs>({
      query: ({ q, page }) => ({ url: '/staff/people', params: { ...(q && { q }), ...(page > 1 && { page }) } }),
      responseSchema: peoplePageSchema,
      providesTags: ['People'],
    }),
    setRole: build.mutation<Person, { id: string; role: Role }>({
      query: ({ id, role }) => ({ url: `/staff/people/${encodeURIComponent(id)}/role`, method: 'PUT', body: { role } }),
      responseSchema: personSchema,
      invalidatesTags: ['People', 'Activity', 'Invitations'],
    }),
    setActive: build.mutation<Person, { id: string; active: boolean }>({
      query: ({ id, active }) => ({ url: `/staff/people/${encodeURIComponent(id)}/active`, method: 'PUT', body: { active } }),
      responseSchema: personSchema,
      invalidatesTags: ['People', 'Activity'],
    }),
  }),
});

export const { useListPeopleQuery, useSetRoleMutation, useSetActiveMutation } = peopleApi;

/** The page of People a URL asks for: `q` (trimmed, capped) and `page` (1…10000). */
export function peopleArgsOf(search: URLSearchParams): PeopleArgs {
  const q = (search.get('q') ?? '').slice(0, 100).trim();
  const raw = search.get('page') ?? '';
  const page = /^[1-9][0-9]{0,4}$/.test(raw) ? Math.min(Number(raw), 10_000) : 1;
  return { q, page };
}
