import { PlaceholderPanel, type ConsoleTabPage } from './console-layout-parts';

/** /admin and /admin/teachers: a placeholder until its page comes (issue 24, the console's part). */
function TeachersTab() {
  return <PlaceholderPanel title="Teachers">The catalogue’s teachers: search, add, edit, photos and status.</PlaceholderPanel>;
}

export const teachersTab: ConsoleTabPage = { Component: TeachersTab };
