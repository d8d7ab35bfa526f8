import { CatalogueSection } from '../../features/teachers';
import { PrivateBooking } from '../../features/booking/components/lessons-view';

/** /bookings/:token: a visitor's booking, through its private link. */
export function Component() {
  return (
    <CatalogueSection>
      <title>Your trial lesson · LearnLingo</title>
      <meta name="robots" content="noindex" />
      <PrivateBooking />
    </CatalogueSection>
  );
}
