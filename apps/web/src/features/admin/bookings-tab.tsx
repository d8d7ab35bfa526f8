import { PlaceholderPanel, type ConsoleTabPage } from './console-layout-parts';

/** /admin/bookings: a placeholder until its page comes (issue 24, the console's part). */
function BookingsTab() {
  return <PlaceholderPanel title="Bookings">Every lesson, by teacher, dates and status.</PlaceholderPanel>;
}

export const bookingsTab: ConsoleTabPage = { Component: BookingsTab };
