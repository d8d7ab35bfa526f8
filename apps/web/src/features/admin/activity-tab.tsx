import { Link, useSearchParams } from 'react-router';
import type { ActivityEntry } from '@learnlingo/contract';
import { consoleStyles, type ConsoleTabPage } from './console-layout-parts';
import { activityApi, activityBeforeOf, useListActivityQuery } from './activity-api';
import { changesOf, describeAction, describeSubject, formatInstant } from './activity-format';
import styles from './activity.module.css';

function Entry({ entry }: { entry: ActivityEntry }) {
  const changes = changesOf(entry.before, entry.after);
  return (
    <li className={styles.entry}>
      <div className={styles.head}>
        <strong>{describeAction(entry.action)}</strong>
        <span className={styles.subject}>{describeSubject(entry.subject)}</span>
      </div>
      <div className={styles.meta}>
        <time dateTime={entry.at}>{formatInstant(entry.at)}</time>
        {' · '}
        {entry.actor.name}
        {entry.actor.email ? ` (${entry.actor.email})` : ''}
      </div>
      {changes.length > 0 ? (
        <dl className={styles.changes}>
          {changes.map(([field, was, now]) => (
            <div key={field} className={styles.change}>
              <dt>{field}</dt>
              <dd>
                {was} <span aria-label="became">→</span> {now}
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
    </li>
  );
}

/** /admin/activity: every staff change, newest first, a page at a time ("Older" follows the log). */
function ActivityTab() {
  const [search] = useSearchParams();
  const before = activityBeforeOf(search);
  const { data, isError } = useListActivityQuery(before);
  return (
    <>
      <h2 className={consoleStyles.panelTitle}>Activity</h2>
      {isError && !data ? <p role="alert">The activity could not be loaded. Please try again.</p> : null}
      {data ? (
        <>
          <p className={consoleStyles.muted}>
            {data.total === 0 ? 'Nothing has changed yet.' : `${data.total} ${data.total === 1 ? 'change' : 'changes'} recorded, newest first.`}
          </p>
          <ol className={styles.log}>
            {data.items.map((entry) => (
              <Entry key={entry.id} entry={entry} />
            ))}
          </ol>
          <nav aria-label="Pages" className={styles.pager}>
            {before !== null ? <Link to="/admin/activity">Newest</Link> : <span />}
            {data.next !== null ? <Link to={`/admin/activity?before=${data.next}`}>Older</Link> : null}
          </nav>
        </>
      ) : null}
    </>
  );
}

export const activityTab: ConsoleTabPage = {
  Component: ActivityTab,
  prefetch: async ({ dispatch, searchParams }) => {
    await dispatch(activityApi.endpoints.listActivity.initiate(activityBeforeOf(searchParams)));
    return undefined;
  },
};
