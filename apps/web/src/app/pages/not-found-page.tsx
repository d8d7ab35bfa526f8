import { ButtonLink } from '../../components/ui/button-link';
import { useHead } from '../../lib/head';
import type { PageModule } from '../page-module';
import { EmptyState } from '../../components/ui/empty-state';
import { CatalogueSection } from '../../features/teachers';

/** Any unknown path answers 404. */
export const prefetch: PageModule['prefetch'] = () => Promise.resolve('not-found');

/** Any unknown path: a white card on the grey band, like the other empty states. */
export function Component() {
  useHead({ title: 'Page not found · LearnLingo', noindex: true });
  return (
    <CatalogueSection>
      <EmptyState title="Page not found" headingLevel={1} action={<ButtonLink to="/">Go to the home page</ButtonLink>}>
        <p>The page you are looking for does not exist or has moved.</p>
      </EmptyState>
    </CatalogueSection>
  );
}
