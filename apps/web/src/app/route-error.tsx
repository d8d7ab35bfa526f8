import { Component, type ReactNode } from 'react';
import { Link, useLocation, type Location } from 'react-router';
import styles from './route-error.module.css';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The error's status text (a thrown Response or route error response) or message. */
function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  if (isRecord(error)) {
    if (typeof error.statusText === 'string' && error.statusText) return error.statusText;
    if (typeof error.status === 'number') return String(error.status);
    if (typeof error.message === 'string') return error.message;
  }
  return 'Unknown error';
}

/** The routing failure page: the original's heading, the error's status text or message, a way back. */
export function RouteError({ error }: { error: unknown }) {
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

interface BoundaryProps {
  location: Location;
  children: ReactNode;
}

interface BoundaryState {
  location: Location;
  /** what was thrown, boxed (anything can be thrown, undefined included) */
  failure: { error: unknown } | null;
}

/** Catches what a route throws while rendering or loading its code; a new location clears it. */
class Boundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { location: this.props.location, failure: null };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { failure: { error } };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.location === state.location ? null : { location: props.location, failure: null };
  }

  override render() {
    return this.state.failure ? <RouteError error={this.state.failure.error} /> : this.props.children;
  }
}

/** Wraps the routes: a failing page shows the route error page instead of the layout. */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <Boundary location={useLocation()}>{children}</Boundary>;
}
