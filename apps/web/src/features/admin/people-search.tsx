import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import type { PeopleArgs } from './people-api';
import styles from './people.module.css';

const peopleUrl = (q: string, page = 1) => {
  const query = new URLSearchParams({ ...(q && { q }), ...(page > 1 && { page: String(page) }) }).toString();
  return `/admin/people${query ? `?${query}` : ''}`;
};

/** The search: a GET form (works before the app runs); the app navigates to the same URL. */
export function PeopleSearch({ q }: { q: string }) {
  const navigate = useNavigate();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = new FormData(event.currentTarget).get('q');
    void navigate(peopleUrl(typeof value === 'string' ? value.trim().slice(0, 100) : ''));
  };
  return (
    <form role="search" className={styles.search} method="get" action="/admin/people" onSubmit={onSubmit}>
      <TextField
        key={q}
        label="Search by name or e-mail"
        hideLabel
        placeholder="Name or e-mail"
        name="q"
        type="search"
        maxLength={100}
        defaultValue={q}
        className={styles.searchField}
      />
      <Button type="submit" variant="dark">
        Search
      </Button>
    </form>
  );
}

/** Previous / next page links (the server pages). */
export function PeoplePager({ args, total, pageSize }: { args: PeopleArgs; total: number; pageSize: number }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages === 1) return null;
  return (
    <nav aria-label="Pages" className={styles.pager}>
      {args.page > 1 ? <Link to={peopleUrl(args.q, args.page - 1)}>Previous</Link> : <span />}
      <span>
        Page {args.page} of {pages}
      </span>
      {args.page < pages ? <Link to={peopleUrl(args.q, args.page + 1)}>Next</Link> : <span />}
    </nav>
  );
}
