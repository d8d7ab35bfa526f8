import { createCalendarFeed } from '../../lib/calendar-feed';

/** /teach's private calendar feed panel (decision 118; a lazy chunk the Lessons tab renders): the teacher's lessons and requests. */
const TeacherCalendarFeed = createCalendarFeed('/teach/calendar-feed', 'The lessons you teach, and requests waiting for your answer, as a calendar.');
export default TeacherCalendarFeed;
