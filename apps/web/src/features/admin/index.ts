/** The school console (/admin, issue 24): what the admin page module uses. Loaded with that page only. */
export { ConsoleLayout } from './console-layout';
export { consoleTabOf, type ConsoleTab } from './console-layout-tabs';
