import type { ReactNode } from 'react';
import { NavLink } from 'react-router';
import styles from './teach.module.css';

/** The tabs of /teach: Reviews now; Profile, Hours and Lessons join here later. */
const TABS = [
  { to: '/teach/lessons', label: 'Lessons' },
  { to: '/teach/reviews', label: 'Reviews' },
] as const;

/** /teach's frame: the heading and the tab nav (links: each tab is a page of its own, server-rendered). */
export function TeachLayout({ children }: { children: ReactNode }) {
  return (
    <div className={styles.page}>
      <h1 className={styles.heading}>Teach</h1>
      <nav aria-label="Teaching" className={styles.tabs}>
        {TABS.map((tab) => (
          <NavLink key={tab.to} to={tab.to} className={styles.tab} end>
            {tab.label}
          </NavLink>
        ))}
      </nav>
      {children}
    </div>
  );
}
