import { z } from 'zod';

/**
 * A private calendar feed (issue 25, decision 118): the URL a calendar app subscribes to.
 * `url` is null until the person asks for one; renewing gives a new URL and the old one
 * answers 404 from then on.
 */
export const calendarFeedSchema = z.object({
  url: z.string().nullable(),
});
export type CalendarFeed = z.infer<typeof calendarFeedSchema>;
