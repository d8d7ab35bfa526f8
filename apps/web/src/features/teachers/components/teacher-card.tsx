import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Teacher } from '@learnlingo/contract';
import { TeacherAvatar } from './teacher-avatar';
import { fullName } from '../lib/format';
import { LevelTags } from './level-tags';
import { TeacherFigures } from './teacher-figures';
import { TeacherReviews } from './teacher-reviews';
import styles from './teacher-card.module.css';

export interface TeacherCardProps {
  teacher: Teacher;
  /** the level chosen in the filter, highlighted among the tags */
  activeLevel?: string | undefined;
  /** the favourite (heart) button */
  heart?: ReactNode;
  /** the "Book trial lesson" action, shown once the card is expanded */
  booking?: ReactNode;
  /** the teacher's own page: the experience and reviews are just shown, with no Read more / Show less */
  alwaysExpanded?: boolean;
  /** h2 in lists, h1 on the teacher's own page */
  headingLevel?: 'h1' | 'h2';
  /** the page's first card: its picture loads at once (it is the largest paint) */
  priority?: boolean;
  /** in place of the card's own reviews (the teacher's page: all of them, paged on the server) */
  reviews?: ReactNode;
}

export function TeacherCard({
  teacher,
  activeLevel,
  heart,
  booking,
  alwaysExpanded = false,
  headingLevel: Heading = 'h2',
  priority = false,
  reviews,
}: TeacherCardProps) {
  const [opened, setOpened] = useState(false);
  const expanded = alwaysExpanded || opened;
  const nameId = useId();
  const name = fullName(teacher);

  return (
    <article className={styles.card} aria-labelledby={nameId}>
      <div className={styles.avatarRing}>
        <TeacherAvatar teacherId={teacher.id} source={teacher.avatar_url} name={name} size={96} priority={priority} />
      </div>

      <div className={styles.content}>
        <header className={styles.header}>
          <div>
            <p className={styles.languagesLabel}>Languages</p>
            <Heading className={styles.name} id={nameId}>
              <Link to={`/teachers/${encodeURIComponent(teacher.id)}`} className={styles.nameLink}>
                {name}
              </Link>
            </Heading>
          </div>
          <div className={styles.headerAside}>
            <TeacherFigures teacher={teacher} />
            {heart}
          </div>
        </header>

        <dl className={styles.facts}>
          <div className={styles.fact}>
            <dt>Speaks:</dt>
            <dd>{teacher.languages.join(', ')}</dd>
          </div>
          {teacher.country === null ? null : (
            <div className={styles.fact}>
              <dt>Country:</dt>
              <dd>{teacher.country}</dd>
            </div>
          )}
          <div className={styles.fact}>
            <dt>Lesson Info:</dt>
            <dd>{teacher.lesson_info}</dd>
          </div>
          <div className={styles.fact}>
            <dt>Conditions:</dt>
            <dd>{teacher.conditions.join(' ')}</dd>
          </div>
        </dl>

        {alwaysExpanded ? (
          <div className={styles.details}>
            <p className={styles.experience}>{teacher.experience}</p>
            {reviews ?? <TeacherReviews reviews={teacher.reviews} />}
          </div>
        ) : (
          // a disclosure that opens without JavaScript too; with it, the card follows its state
          <details className={styles.details} open={opened} onToggle={(event) => setOpened(event.currentTarget.open)}>
            {/* the label follows the open state in CSS, so that it is right without JavaScript too */}
            <summary className={styles.readMore}>
              <span className={styles.whenClosed}>Read more</span>
              <span className={styles.whenOpen}>Show less</span>
            </summary>
            <p className={styles.experience}>{teacher.experience}</p>
            <TeacherReviews reviews={teacher.reviews} />
          </details>
        )}

        <LevelTags levels={teacher.levels} activeLevel={activeLevel} />

        {/* in the server's HTML too: without JavaScript (or before it runs) an open "Read more" shows it, by CSS */}
        {booking ? (
          <div className={styles.booking} hidden={!expanded}>
            {booking}
          </div>
        ) : null}
      </div>
    </article>
  );
}
