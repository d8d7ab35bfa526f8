import type React from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { AdminTeacherPage } from '@learnlingo/contract';
import { Button } from '../../components/ui/button';
import { ButtonLink } from '../../components/ui/button-link';
import { Select } from '../../components/ui/select';
import { Spinner } from '../../components/ui/spinner';
import { TextField } from '../../components/ui/text-field';
import { useGetStaffTeachersQuery } from './teachers-api';
import styles from './teachers-tab.module.css';

export const STATUS_OPTIONS = [
  { value: '', label: 'Any status' },
  { value: 'published', label: 'Published' },
  { value: 'draft', label: 'Draft' },
  { value: 'hidden', label: 'Hidden' },
] as const;

const STATUSES = new Set(['draft', 'published', 'hidden']);

/** The table's query from the URL (the search, status and page live there, not in state). */
export function teachersQueryOf(params: URLSearchParams) {
  const status = params.get('status') ?? '';
  const page = Number(params.get('page') ?? '1');
  return {
    q: (params.get('q') ?? '').slice(0, 100) || undefined,
    status: STATUSES.has(status) ? (status as 'draft' | 'published' | 'hidden') : undefined,
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}

export function StatusBadge({ status }: { status: 'draft' | 'published' | 'hidden' }) {
  return <span className={`${styles.badge} ${styles[status]}`}>{status[0]!.toUpperCase() + status.slice(1)}</span>;
}

function Pager({ data, pathFor }: { data: { total: number; page: number; pageSize: number }; pathFor: (page: number) => string }) {
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  return (
    <nav className={styles.pager} aria-label="Pages">
      <span className={styles.muted}>
        Page {data.page} of {pages} · {data.total} in all
      </span>
      <span className={styles.pagerLinks}>
        {data.page > 1 ? (
          <ButtonLink to={pathFor(data.page - 1)} variant="secondary">
            Previous
          </ButtonLink>
        ) : null}
        {data.page < pages ? (
          <ButtonLink to={pathFor(data.page + 1)} variant="secondary">
            Next
          </ButtonLink>
        ) : null}
      </span>
    </nav>
  );
}
export { Pager };

function Rows({ data }: { data: AdminTeacherPage }) {
  if (data.items.length === 0) return <p className={styles.muted}>No teacher matches.</p>;
  return (
    <div className={styles.tableWrap}>
      <table className={`${styles.table} ${styles.stack}`}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Languages</th>
            <th scope="col" className={styles.num}>
              Price / hour
            </th>
            <th scope="col" className={styles.num}>
              Rating
            </th>
            <th scope="col">Status</th>
            <th scope="col" className={styles.num}>
              Lessons booked
            </th>
          </tr>
        </thead>
        <tbody>
          {data.items.map((t) => (
            <tr key={t.id}>
              <td data-label="Name">
                <Link className={styles.link} to={`/admin/teachers/${encodeURIComponent(t.id)}`}>
                  {t.name} {t.surname}
                </Link>
              </td>
              <td data-label="Languages">{t.languages.join(', ')}</td>
              <td data-label="Price / hour" className={styles.num}>${t.price_per_hour}</td>
              <td data-label="Rating" className={styles.num}>{t.rating.toFixed(1)}</td>
              <td data-label="Status">
                <StatusBadge status={t.status} />
              </td>
              <td data-label="Lessons booked" className={styles.num}>{t.lessonsBooked}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** /admin/teachers: search by name (a GET form: works before the app's code has loaded), status, pages. */
export function TeachersTable() {
  const [params] = useSearchParams();
  const query = teachersQueryOf(params);
  const { data, isFetching, isError } = useGetStaffTeachersQuery(query);
  const navigate = useNavigate();
  // with the app loaded, a search stays in the page (without it, the form's GET does the same)
  const onSearch = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const key of ['q', 'status']) {
      const value = String(form.get(key) ?? '').trim();
      if (value) next.set(key, value);
    }
    void navigate(`/admin/teachers${next.size ? `?${next.toString()}` : ''}`);
  };
  const pathFor = (page: number) => {
    const next = new URLSearchParams(params);
    if (page === 1) next.delete('page');
    else next.set('page', String(page));
    return `/admin/teachers?${next.toString()}`;
  };
  return (
    <div>
      <div className={styles.header}>
        <h2 className={styles.title}>Teachers</h2>
        <ButtonLink to="/admin/teachers/new">Add teacher</ButtonLink>
      </div>
      <form className={styles.toolbar} method="get" action="/admin/teachers" role="search" onSubmit={onSearch} key={`${query.q ?? ''}|${query.status ?? ''}`}>
        <TextField label="Search by name" name="q" type="search" defaultValue={query.q ?? ''} maxLength={100} />
        <Select label="Status" name="status" options={STATUS_OPTIONS} defaultValue={query.status ?? ''} />
        <Button type="submit" variant="secondary">
          Search
        </Button>
      </form>
      {data ? <Rows data={data} /> : isError ? <p className={styles.error}>The teachers could not be loaded.</p> : <Spinner label="Loading teachers" />}
      {data ? <Pager data={data} pathFor={pathFor} /> : null}
      {isFetching && data ? <span className="visually-hidden" role="status">Loading</span> : null}
    </div>
  );
}
