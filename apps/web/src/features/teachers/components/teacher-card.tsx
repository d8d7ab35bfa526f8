import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Teacher } from '@learnlingo/contract';
import { Avatar } from '../../../components/ui/avatar';
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
  /** the teacher page shows the card already expanded */
  defaultExpanded?: boolean;
  /** h2 in lists, h1 on the teacher's own page */
  headingLevel?: 'h1' | 'h2';
}

export function TeacherCard({
  teacher,
  activeLevel,
  heart,
  booking,
  defaultExpanded = false,
  headingLevel: Heading = 'h2',
}: TeacherCardProps) {
  const [expanded, setExpanded] = useState(defaultExpanded);
  const detailsId = useId();
  const name = fullName(teacher);

  return (
    <article className={styles.card} aria-labelledby={`${detailsId}-name`}>
      <div className={styles.avatarRing}>
        <Avatar src={teacher.avatar_url} name={name} size={96} />
      </div>

      <div className={styles.content}>
        <header className={styles.header}>
          <div>
            <p className={styles.languagesLabel}>Languages</p>
            <Heading className={styles.name} id={`${detailsId}-name`}>
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
          <div className={styles.fact}>
            <dt>Lesson Info:</dt>
            <dd>{teacher.lesson_info}</dd>
          </div>
          <div className={styles.fact}>
            <dt>Conditions:</dt>
            <dd>{teacher.conditions.join(' ')}</dd>
          </div>
        </dl>

        <button
          type="button"
          className={styles.readMore}
          aria-expanded={expanded}
          aria-controls={detailsId}
          onClick={() => setExpanded((value) => !value)}
        >
          {expanded ? 'Show less' : 'Read more'}
        </button>

        <div id={detailsId} hidden={!expanded} className={styles.details}>
          {expanded ? (
            <>
              <p className={styles.experience}>{teacher.experience}</p>
              <TeacherReviews reviews={teacher.reviews} />
            </>
          ) : null}
        </div>

        <LevelTags levels={teacher.levels} activeLevel={activeLevel} />

        {expanded && booking ? <div className={styles.booking}>{booking}</div> : null}
      </div>
    </article>
  );
}
