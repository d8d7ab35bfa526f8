import { Navigate, useParams } from 'react-router';
import { ButtonLink } from '../../components/ui/button-link';
import { EmptyState } from '../../components/ui/empty-state';
import { Spinner } from '../../components/ui/spinner';
import { errorStatus } from '../../lib/api-error';
import { useHead } from '../../lib/head';
import type { PageModule } from '../page-module';
import { selectIsLoggedIn, selectIsRefresh } from '../../features/auth';
import { prefetchTeacher, TEACH_TABS, TeachLayout, teachTabOf, useGetTeachProfileQuery } from '../../features/teach';
import { CatalogueSection } from '../../features/teachers';
import { useAppSelector } from '../../store';

/**
 * /teach and /teach/{tab}: a teacher's own pages. Anyone but a teacher gets the not-found page
 * (the server asks the API, which answers 401/403 to them), so the path says nothing.
 */
/** The tab a path under /teach names (`/teach/reviews` → reviews), or undefined for /teach itself. */
const segmentOf = (splat: string | undefined) => (splat ? splat.replace(/\/+$/, '') : undefined) || undefined;
const FIRST = `/teach/${TEACH_TABS[0]!.segment}`;

export const prefetch: PageModule['prefetch'] = async ({ dispatch, params, searchParams, signedIn }) => {
  const segment = segmentOf(params['*']);
  const tab = segment === undefined ? undefined : teachTabOf(segment);
  if (!signedIn || (segment !== undefined && !tab)) return 'not-found';
  const result = await prefetchTeacher(dispatch);
  const status = result.isError ? errorStatus(result.error) : undefined;
  if (status === 401 || status === 403 || status === 404) return 'not-found';
  await tab?.prefetch?.(dispatch, searchParams);
  return tab === undefined ? { canonical: FIRST } : undefined;
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
  const segment = segmentOf(useParams()['*']);
  const tab = segment === undefined ? undefined : teachTabOf(segment);
  const isRefresh = useAppSelector(selectIsRefresh);
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const { error, isError } = useGetTeachProfileQuery(undefined, { skip: !isLoggedIn });
  useHead({ title: `${tab ? `${tab.label} · ` : ''}Teach · LearnLingo`, noindex: true });
  if (segment !== undefined && !tab) return <NotFound />;
  if (isRefresh) return <Spinner label="Restoring your session" />;
  if (!isLoggedIn) return <NotFound />;
  const status = isError ? errorStatus(error) : undefined;
  if (status === 401 || status === 403 || status === 404) return <NotFound />;
  if (tab === undefined) return <Navigate to={FIRST} replace />;
  return <TeachLayout tab={tab} />;
}

export function Component() {
  return (
    <CatalogueSection>
      <TeachPage />
    </CatalogueSection>
  );
}
