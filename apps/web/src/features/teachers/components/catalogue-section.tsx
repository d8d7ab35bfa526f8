import type { ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import styles from './catalogue-section.module.css';

/** The grey band (with a visually hidden page heading, unless the content brings its own h1),
 * the 1216 px column the catalogue, favourites and teacher pages sit in. */
export function CatalogueSection({ title, children }: { title?: string | undefined; children: ReactNode }) {
  return (
    <div className={styles.band}>
      <div className={styles.container}>
        {title ? <h1 className="visually-hidden">{title}</h1> : null}
        {children}
      </div>
    </div>
  );
}

/** A quiet text link ("← All teachers"). */
export function BackLink(props: LinkProps) {
  return <Link {...props} className={styles.backLink} />;
}
