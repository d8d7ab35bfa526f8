import { photoUploadedSchema, teachProfileSchema, type PhotoUploaded, type TeachProfile, type TeachProfileInput } from '@learnlingo/contract';
import { api } from '../../lib/api';

/**
 * The signed-in teacher's own card (/api/teach/profile, issue 25). An edit refreshes the
 * catalogue's pages of that teacher; the server's change feed does the rest.
 */
export const teachProfileApi = api.enhanceEndpoints({ addTagTypes: ['TeachProfile'] }).injectEndpoints({
  endpoints: (build) => ({
    getTeachProfile: build.query<TeachProfile, void>({
      query: () => '/teach/profile',
      responseSchema: teachProfileSchema,
      providesTags: ['TeachProfile'],
    }),
    putTeachProfile: build.mutation<TeachProfile, TeachProfileInput>({
      query: (body) => ({ url: '/teach/profile', method: 'PUT', body }),
      responseSchema: teachProfileSchema,
      invalidatesTags: (result) => ['TeachProfile', 'Teachers', 'Facets', ...(result ? [{ type: 'Teacher' as const, id: result.id }] : [])],
    }),
    uploadTeachPhoto: build.mutation<PhotoUploaded, File>({
      query: (file) => ({ url: '/teach/profile/photo', method: 'POST', body: file, headers: { 'content-type': 'application/octet-stream' } }),
      responseSchema: photoUploadedSchema,
      invalidatesTags: ['TeachProfile', 'Teachers'],
    }),
  }),
});

export const { useGetTeachProfileQuery, usePutTeachProfileMutation, useUploadTeachPhotoMutation } = teachProfileApi;
