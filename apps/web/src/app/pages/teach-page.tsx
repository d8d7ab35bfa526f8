import { Navigate, useParams } from 'react-router';
import { ButtonLink } from '../../components/ui/button-link';
import { EmptyState } from '../../components/ui/empty-state';
import { Spinner } from '../../components/ui/spinner';
import { errorStatus } from '../../lib/api-error';
import { useHead } from '../../lib/head';
import type { PageModule } from '../page-module';
import { selectIsLoggedIn, selectIsRefresh } from '../../features/auth';
import { reviewsApi, useGetTeachReviewsQuery } from '../../features/reviews';
import { prefetchTeachLessons, TeachLayout, TeachLessons, TeachReviews, useTeachLessonsAccess } from '../../features/teach';
import { CatalogueSection } from '../../features/teachers';
import { useAppSelector } from '../../store';

/** The tabs /teach has (a later issue adds profile, hours, lessons). */
const TABS = new Set(['reviews', 'lessons']);

/**
 * /teach and /teach/{tab}: a teacher's own pages. Anyone but a teacher gets the not-found page
 * (the server asks the API, which answers 401/403 to them), so the path says nothing.
 */
/** The tab a path under /teach names (`/teach/reviews` → reviews), or undefined for /teach itself. */
const tabOf = (splat: string | undefined) => (splat ? splat.replace(/\/+$/, '') : undefined) || undefined;

export const prefetch: PageModule['prefetch'] = async ({ dispatch, params, searchParams, signedIn }) => {
  const tab = tabOf(params['*']);
  if (!signedIn || (tab !== undefined && !TABS.has(tab))) return 'not-found';
  // each tab's own data tells a teacher from anyone else (the API answers them 401/403)
  const result = tab === 'lessons' ? await prefetchTeachLessons(dispatch, searchParams) : await dispatch(reviewsApi.endpoints.getTeachReviews.initiate());
  const status = result.isError ? errorStatus(result.error) : undefined;
  if (status === 401 || status === 403 || status === 404) return 'not-found';
  return tab === undefined ? { canonical: '/teach/reviews' } : undefined;
};

function NotFound() {
  useHead({ title: 'Page not found · LearnLingo', noindex: true });
  return (
    <EmptyState title="Page not found" headingLevel={1} action={<ButtonLink to="/">Go to the home page</ButtonLink>}>
      <p>The page you are looking for does not exist or has moved.</p>
    </EmptyState>
  );
}

function TeachPage() {
  const tab = tabOf(useParams()['*']);
  const isRefresh = useAppSelector(selectIsRefresh);
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const onLessons = tab === 'lessons';
  const reviews = useGetTeachReviewsQuery(undefined, { skip: !isLoggedIn || onLessons });
  const lessons = useTeachLessonsAccess(!isLoggedIn || !onLessons);
  const { error, isError } = onLessons ? lessons : reviews;
  useHead({ title: 'Teach · LearnLingo', noindex: true });
  if (tab !== undefined && !TABS.has(tab)) return <NotFound />;
  if (isRefresh) return <Spinner label="Restoring your session" />;
  if (!isLoggedIn) return <NotFound />;
  const status = isError ? errorStatus(error) : undefined;
  if (status === 401 || status === 403) return <NotFound />;
  if (tab === undefined) return <Navigate to="/teach/reviews" replace />;
  return (
    <TeachLayout>{tab === 'lessons' ? <TeachLessons /> : <TeachReviews />}</TeachLayout>
  );
}

export function Component() {
  return (
    <CatalogueSection>
      <TeachPage />
    </CatalogueSection>
  );
}
