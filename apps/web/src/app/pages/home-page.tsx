import { Hero } from '../components/home/hero';
import { HomeStats } from '../components/home/home-stats';
import styles from '../components/home/home.module.css';

/** Home: hero, pitch, "Get started", and figures from the live data. Loaded on demand. */
export function Component() {
  return (
    <div className={`container ${styles.home}`}>
      <Hero />
      <HomeStats />
    </div>
  );
}
