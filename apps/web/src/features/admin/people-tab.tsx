import { PlaceholderPanel, type ConsoleTabPage } from './console-layout-parts';

/** /admin/people */
function PeopleTab() {
  return <PlaceholderPanel title="People">Accounts: search by name or e-mail, change a role, deactivate and reactivate.</PlaceholderPanel>;
}

export const peopleTab: ConsoleTabPage = { Component: PeopleTab };
