import { useSearchParams } from 'react-router';
import { consoleStyles as styles, type ConsoleTabPage } from './console-layout-parts';
import { peopleApi, peopleArgsOf, useListPeopleQuery } from './people-api';
import { PeoplePager, PeopleSearch } from './people-search';
import { PeopleTable } from './people-table';
import { InviteForm } from './invite-form';

/** /admin/people: accounts searched and paged on the server; roles, deactivation; inviting a teacher. */
function PeopleTab() {
  const [search] = useSearchParams();
  const args = peopleArgsOf(search);
  const { data, isFetching, isError } = useListPeopleQuery(args);
  return (
    <>
      <div className={styles.panelHeader}>
        <h2 className={styles.panelTitle}>People</h2>
        <PeopleSearch q={args.q} />
      </div>
      {isError && !data ? <p role="alert">The accounts could not be loaded. Please try again.</p> : null}
      {data ? (
        <>
          <p className={styles.muted} aria-live="polite">
            {data.total === 0
              ? args.q
                ? `No account matches “${args.q}”.`
                : 'No accounts yet.'
              : `${data.total} ${data.total === 1 ? 'account' : 'accounts'}${args.q ? ` matching “${args.q}”` : ''}`}
          </p>
          {data.items.length > 0 ? <PeopleTable people={data.items} busy={isFetching} /> : null}
          <PeoplePager args={args} total={data.total} pageSize={data.pageSize} />
        </>
      ) : null}
      <InviteForm />
    </>
  );
}

export const peopleTab: ConsoleTabPage = {
  Component: PeopleTab,
  prefetch: async ({ dispatch, searchParams }) => {
    await dispatch(peopleApi.endpoints.listPeople.initiate(peopleArgsOf(searchParams)));
    return undefined;
  },
};
