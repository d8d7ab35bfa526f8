import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import styles from './route-error.module.css';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return error.statusText || `${error.status}`;
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return 'Unknown error';
}

/** The routing failure page: the original's heading, the error's status text or message, a way back. */
export function RouteError() {
  const error = useRouteError();
  return (
    <main className={styles.page}>
      <h1 className={styles.title}>Unexpected Application Error!</h1>
      <p className={styles.message}>{describe(error)}</p>
      <div className={styles.actions}>
        <Link to="/" className={styles.link} reloadDocument>
          Go to the home page
        </Link>
        <button type="button" className={styles.retry} onClick={() => window.location.reload()}>
          Try again
        </button>
      </div>
    </main>
  );
}
