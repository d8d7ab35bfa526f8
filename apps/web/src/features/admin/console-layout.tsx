import { Link } from 'react-router';
import { CONSOLE_TABS, tabPath, type ConsoleTab } from './console-layout-tabs';
import styles from './console-layout.module.css';

/**
 * The school's console (/admin, admins only): its heading, the tabs' nav (a row that wraps
 * on a narrow screen) and the current tab's page.
 */
export function ConsoleLayout({ tab, rest }: { tab: ConsoleTab; rest: string }) {
  const Page = tab.page.Component;
  return (
    <div className={styles.page}>
      <div className={styles.column}>
        <h1 className={styles.heading}>School console</h1>
        <nav aria-label="Console">
          <ul className={styles.tabList}>
            {CONSOLE_TABS.map((each) => (
              <li key={each.segment}>
                <Link to={tabPath(each)} className={styles.tab} aria-current={each === tab ? 'page' : undefined}>
                  {each.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <section aria-label={tab.label} className={styles.panel}>
          <Page rest={rest} />
        </section>
      </div>
    </div>
  );
}
