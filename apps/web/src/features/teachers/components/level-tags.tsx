import type { Level } from '@learnlingo/contract';
import styles from './teacher-card.module.css';

/** The teacher's levels; the one chosen in the filter is highlighted. */
export function LevelTags({ levels, activeLevel }: { levels: readonly Level[]; activeLevel?: string | undefined }) {
  return (
    <ul className={styles.levels} aria-label="Levels">
      {levels.map((level) => {
        const active = level === activeLevel;
        return (
          <li key={level} className={active ? `${styles.level} ${styles.levelActive}` : styles.level} data-active={active || undefined}>
            #{level}
            {active ? <span className="visually-hidden"> (matches your filter)</span> : null}
          </li>
        );
      })}
    </ul>
  );
}
