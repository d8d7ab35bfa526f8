import { PlaceholderPanel, type ConsoleTabPage } from './console-layout-parts';

/** /admin/activity */
function ActivityTab() {
  return <PlaceholderPanel title="Activity">Every change the staff made: who, when, what, before and after.</PlaceholderPanel>;
}

export const activityTab: ConsoleTabPage = { Component: ActivityTab };
