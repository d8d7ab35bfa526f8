import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { englishNumber } from '../../../lib/english-number';
import { useGetStatsQuery } from './stats-api';
import styles from './home.module.css';

/** The row of figures from the live data; honest about loading and failure. */
export function HomeStats() {
  const { data, isLoading, isError, refetch, isFetching } = useGetStatsQuery();

  if (isLoading) {
    return (
      <section className={styles.stats} aria-label="LearnLingo in figures">
        <Spinner size={40} label="Loading the figures" />
      </section>
    );
  }
  if (isError || !data) {
    return (
      <section className={`${styles.stats} ${styles.statsError}`} aria-label="LearnLingo in figures">
        <p>The figures could not be loaded.</p>
        <Button variant="secondary" onClick={() => void refetch()} disabled={isFetching}>
          Try again
        </Button>
      </section>
    );
  }

  const figures = [
    { value: data.teachers, label: 'Experienced tutors' },
    { value: data.reviews, label: 'Tutor reviews' },
    { value: data.languages, label: 'Languages taught' },
    { value: data.lessonsDone, label: 'Lessons done' },
  ];
  return (
    <section className={styles.stats} aria-label="LearnLingo in figures">
      <ul className={styles.figures}>
        {figures.map(({ value, label }) => (
          <li key={label} className={styles.figure}>
            <span className={styles.value}>{englishNumber(value)}</span>
            <span className={styles.label}>{label}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
