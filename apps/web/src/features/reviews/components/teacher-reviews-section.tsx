import { Link } from 'react-router';
import type { ReviewSort } from '@learnlingo/contract/plain';
import { Spinner } from '../../../components/ui/spinner';
import { useGetTeacherReviewsQuery } from '../api/public-reviews-api';
import { TeacherReviews } from '../../teachers';
import styles from './teacher-reviews-section.module.css';

/** The teacher page's reviews query from its URL: `?reviews=lowest&page=2` (newest first, page 1 by default). */
export function readReviewsQuery(searchParams: URLSearchParams): { sort: ReviewSort; page: number } {
  const sort: ReviewSort = searchParams.get('reviews') === 'lowest' ? 'lowest' : 'newest';
  const raw = searchParams.get('page') ?? '';
  const page = raw.length <= 6 && /^\d+$/.test(raw) ? Math.max(1, Number(raw)) : 1;
  return { sort, page };
}

const href = (sort: ReviewSort, page: number) => `?${new URLSearchParams({ reviews: sort, ...(page > 1 ? { page: String(page) } : {}) }).toString()}#reviews`;

/**
 * A teacher's reviews on their page, paged on the server: links, not buttons, for the order
 * and the pages, so it reads without JavaScript (the server renders any page of them).
 */
export function TeacherReviewsSection({ teacherId, sort, page }: { teacherId: string; sort: ReviewSort; page: number }) {
  const { data, isError } = useGetTeacherReviewsQuery({ teacherId, sort, page });
  return (
    <section id="reviews" className={styles.section} aria-labelledby="reviews-title">
      <div className={styles.sectionHead}>
        <h2 id="reviews-title" className={styles.sectionTitle}>
          Reviews{data ? ` (${data.total})` : ''}
        </h2>
        <nav className={styles.sorts} aria-label="Order of the reviews">
          <Link className={styles.link} to={href('newest', 1)} aria-current={sort === 'newest' ? 'true' : undefined} preventScrollReset>
            Newest first
          </Link>
          <Link className={styles.link} to={href('lowest', 1)} aria-current={sort === 'lowest' ? 'true' : undefined} preventScrollReset>
            Lowest rating first
          </Link>
        </nav>
      </div>
      {isError ? (
        <p className={styles.hint}>Could not load the reviews.</p>
      ) : !data ? (
        <Spinner label="Loading the reviews" />
      ) : data.items.length === 0 ? (
        <p className={styles.hint}>No reviews yet.</p>
      ) : (
        <>
          <TeacherReviews
            reviews={data.items.map((review) => ({
              reviewer_name: review.reviewer_name,
              reviewer_rating: review.reviewer_rating,
              comment: review.comment,
              ...(review.kind === 'lesson' ? { lesson: true as const, date: review.date ?? undefined, language: review.language, reply: review.reply } : {}),
            }))}
          />
          {data.pages > 1 ? (
            <nav className={styles.pager} aria-label="Pages of reviews">
              {data.page > 1 ? (
                <Link className={styles.link} to={href(sort, data.page - 1)} preventScrollReset>
                  ← Newer
                </Link>
              ) : null}
              <span className={styles.meta}>
                Page {data.page} of {data.pages}
              </span>
              {data.page < data.pages ? (
                <Link className={styles.link} to={href(sort, data.page + 1)} preventScrollReset>
                  {sort === 'lowest' ? 'Next →' : 'Older →'}
                </Link>
              ) : null}
            </nav>
          ) : null}
        </>
      )}
    </section>
  );
}
