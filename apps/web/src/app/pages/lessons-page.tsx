import { Navigate, useParams } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import { useHead } from '../../lib/head';
import type { PageModule } from '../page-module';
import { selectIsLoggedIn, selectIsRefresh } from '../../features/auth';
import { CatalogueSection, teachersApi } from '../../features/teachers';
import { BookingPage, bookingApi, MyLessons, PrivateBooking } from '../../features/booking/lessons';
import { reviewsApi } from '../../features/reviews';
import { errorStatus } from '../../lib/api-error';
import { useAppSelector } from '../../store';

/**
 * My lessons is for signed-in learners (a visitor is redirected to `/`): the server fetches
 * the lessons and their review states. A booking's private link is for whoever holds it: the
 * server fetches the booking (and, once past, its review state), so the page works without
 * scripts; a token that is no booking's answers 404.
 */
export const prefetch: PageModule['prefetch'] = async ({ dispatch, params, signedIn, form }) => {
  if (params.id !== undefined) {
    // /teachers/:id/book: the teacher and their free times; a refused (or done) post's echo
    const [teacher] = await Promise.all([
      dispatch(teachersApi.endpoints.getTeacher.initiate(params.id)),
      dispatch(bookingApi.endpoints.getSlots.initiate(params.id)),
    ]);
    if (form?.form === 'booking') dispatch(bookingApi.util.upsertQueryEntries([{ endpointName: 'getBookingEcho', arg: params.id, value: form }]));
    const status = teacher.isError ? errorStatus(teacher.error) : undefined;
    return status === 404 || status === 400 ? 'not-found' : undefined;
  }
  if (params.token === undefined) {
    if (!signedIn) return 'visitor';
    // the lessons and their review states in the server's HTML: a past lesson's rating form
    // works before the app runs, and without it (decision 105)
    await Promise.all([dispatch(bookingApi.endpoints.getLessons.initiate()), dispatch(reviewsApi.endpoints.getReviewStates.initiate())]);
    return undefined;
  }
  const result = await dispatch(bookingApi.endpoints.getBookingByToken.initiate(params.token));
  const status = result.isError ? errorStatus(result.error) : undefined;
  if (result.data?.status === 'past') await dispatch(reviewsApi.endpoints.getReviewStateByToken.initiate(params.token));
  return status === 404 || status === 400 ? 'not-found' : undefined;
};

/** /lessons: signed in only; a visitor goes to `/` once the session is known (as RequireAuth does). */
function MyLessonsPage() {
  useHead({ title: 'My lessons · LearnLingo', noindex: true });
  const isRefresh = useAppSelector(selectIsRefresh);
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  if (isRefresh) return <Spinner label="Restoring your session" />;
  if (!isLoggedIn) return <Navigate to="/" replace />;
  return (
    <CatalogueSection>
      <MyLessons />
    </CatalogueSection>
  );
}

/**
 * /lessons, /bookings/:token (a visitor's booking through its private link) and
 * /teachers/:id/book (the booking page, decision 105): one module, so the first page load
 * carries one lazy route for the three.
 */
export function Component() {
  const { token, id } = useParams();
  if (id) return <BookingPage teacherId={id} />;
  if (!token) return <MyLessonsPage />;
  return <PrivateBookingPage token={token} />;
}

/** /bookings/:token: a private link, never indexed. */
function PrivateBookingPage({ token }: { token: string }) {
  useHead({ title: 'Your trial lesson · LearnLingo', noindex: true });
  return (
    <CatalogueSection>
      <PrivateBooking token={token} />
    </CatalogueSection>
  );
}
