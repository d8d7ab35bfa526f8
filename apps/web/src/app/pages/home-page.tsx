import { DEFAULT_DESCRIPTION, useHead } from '../../lib/head';
import { Hero } from '../components/home/hero';
import { HomeStats } from '../components/home/home-stats';
import { statsApi } from '../components/home/stats-api';
import type { PageModule } from '../page-module';
import styles from '../components/home/home.module.css';

/** The server fetches the figures. */
export const prefetch: PageModule['prefetch'] = async ({ dispatch }) => {
  await dispatch(statsApi.endpoints.getStats.initiate());
  return undefined;
};

/** Home: hero, pitch, "Get started", and figures from the live data. Loaded on demand. */
export function Component() {
  useHead({ title: 'LearnLingo: online language teachers', description: DEFAULT_DESCRIPTION });
  return (
    <div className={`container ${styles.home}`}>
      <Hero />
      <HomeStats />
    </div>
  );
}
