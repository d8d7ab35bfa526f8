import { createCalendarFeed } from '../../lib/calendar-feed';

/** My lessons' private calendar feed panel (decision 118; a lazy chunk): the signed-in learner's own lessons. */
const LearnerCalendarFeed = createCalendarFeed('/calendar-feed', 'Your trial lessons as a calendar.');
export default LearnerCalendarFeed;
