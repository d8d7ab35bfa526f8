import { useState } from 'react';
import { useSelector } from 'react-redux';
import { NavLink } from 'react-router';
import { CloseIcon, MenuIcon } from '../../components/ui/icon';
import { selectIsLoggedIn } from '../../features/auth';
import { HeaderAuth } from './header-auth';
import { Logo } from './logo';
import styles from './header.module.css';

const linkClass = ({ isActive }: { isActive: boolean }) => (isActive ? `${styles.link} ${styles.active}` : styles.link);

/** Logo, navigation (Favorites and My lessons only when signed in) and the account actions; a menu button below 768 px. */
export function Header() {
  const isLoggedIn = useSelector(selectIsLoggedIn);
  const [menuOpen, setMenuOpen] = useState(false);
  const closeMenu = () => setMenuOpen(false);

  return (
    <header className={styles.header}>
      <div className={`container ${styles.bar}`}>
        <Logo />
        <button
          type="button"
          className={styles.menuButton}
          aria-expanded={menuOpen}
          aria-controls="site-menu"
          aria-label="Menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <CloseIcon size={24} /> : <MenuIcon size={24} />}
        </button>
        <div id="site-menu" className={menuOpen ? `${styles.menu} ${styles.menuOpen}` : styles.menu}>
          <nav aria-label="Main" className={styles.nav}>
            <ul className={styles.links}>
              <li>
                <NavLink to="/" end className={linkClass} onClick={closeMenu}>
                  Home
                </NavLink>
              </li>
              <li>
                <NavLink to="/teachers" className={linkClass} onClick={closeMenu}>
                  Teachers
                </NavLink>
              </li>
              {isLoggedIn && (
                <>
                  <li>
                    <NavLink to="/favorites" className={linkClass} onClick={closeMenu}>
                      Favorites
                    </NavLink>
                  </li>
                  <li>
                    <NavLink to="/lessons" className={linkClass} onClick={closeMenu}>
                      My lessons
                    </NavLink>
                  </li>
                </>
              )}
            </ul>
          </nav>
          <HeaderAuth onAction={closeMenu} />
        </div>
      </div>
    </header>
  );
}
