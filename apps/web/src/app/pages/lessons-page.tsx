import { CatalogueSection } from '../../features/teachers';
import { MyLessons } from '../../features/booking/components/lessons-view';

/** /lessons (signed in only; the route guard sends visitors to /). */
export function Component() {
  return (
    <CatalogueSection>
      <title>My lessons · LearnLingo</title>
      <MyLessons />
    </CatalogueSection>
  );
}
