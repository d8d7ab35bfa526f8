import { useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { EmptyState } from '../../components/ui/empty-state';
import { Spinner } from '../../components/ui/spinner';
import { errorStatus } from '../../lib/api-error';
import { BookTrialButton } from '../../features/booking';
import { FavoriteButton, useFavoritesSync } from '../../features/favorites';
import { ButtonLink } from '../../components/ui/button-link';
import { BackLink, CatalogueSection, TeacherCard, selectFilters, useGetTeacherQuery } from '../../features/teachers';
import { useAppSelector } from '../../store';

/** /teachers/:id: one teacher, expanded, with reviews and booking (a shareable link). */
export function Component() {
  useFavoritesSync();
  const { id = '' } = useParams();
  const { data: teacher, error, isError, refetch } = useGetTeacherQuery(id);
  // back to the catalogue as the user left it (search, order, filters)
  const { search } = useAppSelector(selectFilters);

  return (
    <CatalogueSection title={teacher ? undefined : 'Teacher'}>
      <title>{teacher ? `${teacher.name} ${teacher.surname} · LearnLingo` : 'Teacher · LearnLingo'}</title>
      <BackLink to={search ? `/teachers?${search}` : '/teachers'}>← All teachers</BackLink>
      {teacher ? (
        <TeacherCard
          key={teacher.id}
          teacher={teacher}
          defaultExpanded
          headingLevel="h1"
          heart={<FavoriteButton teacher={teacher} />}
          booking={<BookTrialButton teacher={teacher} />}
        />
      ) : isError && (errorStatus(error) === 404 || errorStatus(error) === 400) ? (
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
