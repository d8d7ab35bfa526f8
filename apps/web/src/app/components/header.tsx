import type { MouseEvent } from 'react';
import { useSelector } from 'react-redux';
import { NavLink } from 'react-router';
import { selectIsLoggedIn, selectUser } from '../../features/auth';
import { HeaderAuth } from './header-auth';
import { Logo } from './logo';
import styles from './header.module.css';

const linkClass = ({ isActive }: { isActive: boolean }) => (isActive ? `${styles.link} ${styles.active}` : styles.link);

/** A link or button in the open menu did its work (navigated, opened a modal): the menu closes. */
function closeAfterAction(event: MouseEvent<HTMLDivElement>) {
  // jsdom has no popovers
  if ((event.target as Element).closest('a,button')) event.currentTarget.hidePopover?.();
}

/**
 * Logo, navigation (Favorites and My lessons only when signed in, Admin for admins, Teach for teachers) and the account actions.
 * Below 768 px they fold into a popover menu: the browser opens and closes it, tells screen
 * readers whether it is open, closes it on Escape and on a tap outside (returning focus to
 * the menu button); the CSS keeps that tap off the page beneath and the page from scrolling.
 */
export function Header() {
  const isLoggedIn = useSelector(selectIsLoggedIn);
  // (the role is reset with the user at logout)
  const role = useSelector(selectUser).role;
  const isAdmin = role === 'admin';

  return (
    <header className={styles.header}>
      <div className={`container ${styles.bar}`}>
        <Logo />
        <button type="button" className={styles.menuButton} popoverTarget="site-menu" aria-label="Menu" />
        <div id="site-menu" popover="auto" className={styles.menu} onClick={closeAfterAction}>
          <nav aria-label="Main" className={styles.nav}>
            <ul className={styles.links}>
              <li>
                <NavLink to="/" end className={linkClass}>
                  Home
                </NavLink>
              </li>
              <li>
                <NavLink to="/teachers" className={linkClass}>
                  Teachers
                </NavLink>
              </li>
              {isLoggedIn && (
                <>
                  <li>
                    <NavLink to="/favorites" className={linkClass}>
                      Favorites
                    </NavLink>
                  </li>
                  <li>
                    <NavLink to="/lessons" className={linkClass}>
                      My lessons
                    </NavLink>
                  </li>
                </>
              )}
              {isAdmin && (
                <li>
                  <NavLink to="/admin" className={linkClass}>
                    Admin
                  </NavLink>
                </li>
              )}
              {role === 'teacher' && (
                <li>
                  <NavLink to="/teach" className={linkClass}>
                    Teach
                  </NavLink>
                </li>
              )}
            </ul>
          </nav>
          <HeaderAuth />
        </div>
      </div>
    </header>
  );
}
