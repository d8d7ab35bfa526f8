import { ButtonLink } from '../../components/ui/button-link';
import { EmptyState } from '../../components/ui/empty-state';
import styles from '../components/home/home.module.css';

/** Any unknown path. */
export function Component() {
  return (
    <div className={`container ${styles.home}`}>
      <EmptyState
        title="Page not found"
        headingLevel={1}
        action={
          <ButtonLink to="/">Go to the home page</ButtonLink>
        }
      >
        <p>The page you are looking for does not exist or has moved.</p>
      </EmptyState>
    </div>
  );
}
