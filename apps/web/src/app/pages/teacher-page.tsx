import { Suspense } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import { useParams, useSearchParams } from 'react-router';
import type { Teacher } from '@learnlingo/contract';
import { englishList } from '../../lib/english-list';
import { useHead, type PageHead } from '../../lib/head';
import type { PageModule } from '../page-module';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { Spinner } from '../../components/ui/spinner';
import { errorStatus } from '../../lib/api-error';
import { BookTrialButton } from '../../features/booking';
import { FavoriteButton, prefetchFavorites, useFavoritesSync } from '../../features/favorites';
import { ButtonLink } from '../../components/ui/button-link';
import { BackLink, CatalogueSection, TeacherCard, selectFilters, teachersApi, useGetTeacherQuery } from '../../features/teachers';
import { useAppSelector } from '../../store';
import { publicReviewsApi, readReviewsQuery, TeacherReviewsSection } from '../../features/reviews/public';

/** The server fetches the teacher; an unknown (or malformed) id answers 404. */
export const prefetch: PageModule['prefetch'] = async ({ dispatch, params, signedIn, searchParams }) => {
  const [result] = await Promise.all([
    dispatch(teachersApi.endpoints.getTeacher.initiate(params.id ?? '')),
    signedIn ? prefetchFavorites(dispatch) : undefined,
    // the reviews' page the URL asks for (?reviews=lowest&page=2): readable without JavaScript
    dispatch(publicReviewsApi.endpoints.getTeacherReviews.initiate({ teacherId: params.id ?? '', ...readReviewsQuery(searchParams) })),
  ]);
  const status = result.isError ? errorStatus(result.error) : undefined;
  // a teacher who was public and is hidden now: 410 (decision 111), the same page as a 404's
  return status === 410 ? 'gone' : status === 404 || status === 400 ? 'not-found' : undefined;
};

/** A teacher's head: name, languages and price; schema.org data for search engines. */
function teacherHead(teacher: Teacher, reviewCount: number): PageHead {
  const name = `${teacher.name} ${teacher.surname}`;
  const image = teacher.avatar_url?.startsWith('https://') ? teacher.avatar_url : undefined;
  const languages = englishList(teacher.languages);
  return {
    title: `${name} · LearnLingo`,
    description: `${name} teaches ${languages} online, ${teacher.price_per_hour}$ / 1 hour, rated ${teacher.rating} by ${reviewCount === 1 ? '1 review' : `${reviewCount} reviews`}. Book a trial lesson on LearnLingo.`,
    type: 'profile',
    image,
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Service',
      name: `${teacher.languages.join(', ')} lessons with ${name}`,
      serviceType: 'Online language lessons',
      provider: {
        '@type': 'Person',
        name,
        givenName: teacher.name,
        familyName: teacher.surname,
        knowsLanguage: teacher.languages,
        ...(image ? { image } : {}),
        ...(teacher.country === null ? {} : { address: { '@type': 'PostalAddress', addressCountry: teacher.country } }),
      },
      ...(reviewCount > 0
        ? {
            aggregateRating: {
              '@type': 'AggregateRating',
              ratingValue: teacher.rating,
              bestRating: 5,
              reviewCount,
            },
          }
        : {}),
      offers: {
        '@type': 'Offer',
        price: teacher.price_per_hour,
        priceCurrency: 'USD',
        description: 'Price / 1 hour',
      },
    },
  };
}

/** /teachers/:id: one teacher, expanded, with reviews and booking (a shareable link). */
export function Component() {
  useFavoritesSync();
  const { id = '' } = useParams();
  const { data: teacher, error, isError, refetch } = useGetTeacherQuery(id);
  const reviewsQuery = readReviewsQuery(useSearchParams()[0]);
  // the count of visible reviews as the teacher's row keeps it (the card holds only the first ones)
  // (none asked for a teacher who is not there: the page says so, and asks once for the teacher only)
  const { data: reviewsPage } = publicReviewsApi.useGetTeacherReviewsQuery(teacher ? { teacherId: id, ...reviewsQuery } : skipToken);
  const reviewCount = reviewsPage?.total ?? teacher?.reviews.length ?? 0;
  const missing = isError && [400, 404, 410].includes(errorStatus(error) ?? 0);
  useHead(
    teacher
      ? teacherHead(teacher, reviewCount)
      : { title: missing ? 'Teacher not found · LearnLingo' : 'Teacher · LearnLingo', noindex: true },
  );
  // back to the catalogue as the user left it (search, order, filters)
  const { search } = useAppSelector(selectFilters);

  return (
    <CatalogueSection title={teacher ? undefined : 'Teacher'}>
      <BackLink to={search ? `/teachers?${search}` : '/teachers'}>← All teachers</BackLink>
      {teacher ? (
        // hydrated after the page is live, or at once when a person acts on it (decision 137)
        <Suspense key={teacher.id}>
          <TeacherCard
            teacher={teacher}
            alwaysExpanded
            priority
            headingLevel="h1"
            heart={<FavoriteButton teacher={teacher} />}
            booking={<BookTrialButton teacher={teacher} />}
            reviews={<TeacherReviewsSection teacherId={teacher.id} {...reviewsQuery} />}
          />
        </Suspense>
      ) : missing ? (
        <EmptyState title="Teacher not found" action={<ButtonLink to="/teachers">See all teachers</ButtonLink>}>
          This teacher is not in our catalogue. The link may be old or mistyped.
        </EmptyState>
      ) : isError ? (
        <EmptyState title="Could not load this teacher" action={<Button onClick={() => void refetch()}>Try again</Button>}>
          Check your connection and try again.
        </EmptyState>
      ) : (
        <Spinner label="Loading the teacher" />
      )}
    </CatalogueSection>
  );
}
