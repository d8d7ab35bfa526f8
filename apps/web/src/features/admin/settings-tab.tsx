import { PlaceholderPanel, type ConsoleTabPage } from './console-layout-parts';

/** /admin/settings: a placeholder until its page comes (issue 24, the console's part). */
function SettingsTab() {
  return <PlaceholderPanel title="Settings">The school’s hours, time zone, contact e-mail and closures.</PlaceholderPanel>;
}

export const settingsTab: ConsoleTabPage = { Component: SettingsTab };
