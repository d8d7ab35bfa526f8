import { useSearchParams } from 'react-router';
import { ButtonLink } from '../../components/ui/button-link';
import { Spinner } from '../../components/ui/spinner';
import type { ConsoleTabPage } from './console-layout-parts';
import { InviteForm } from './invite-form';
import { TeacherForm } from './teacher-form';
import { TeacherFormStatus } from './teacher-form-status';
import { staffConsoleApi, useGetStaffTeacherQuery } from './teachers-api';
import { TeachersTable, teachersQueryOf } from './teachers-table';
import styles from './teachers-tab.module.css';

/** The id in /admin/teachers/:id ('' for the table, 'new' for Add teacher). */
const ID = /^\/([A-Za-z0-9_-]{1,64})$/;
const idOf = (rest: string) => ID.exec(rest)?.[1] ?? '';

function EditTeacher({ id }: { id: string }) {
  const { data, isError } = useGetStaffTeacherQuery(id);
  const [params] = useSearchParams();
  if (isError) return <p className={styles.error}>This teacher could not be loaded.</p>;
  if (!data) return <Spinner label="Loading the teacher" />;
  return (
    <div className={styles.sections}>
      <div className={styles.header}>
        <h2 className={styles.title}>
          {data.name} {data.surname}
        </h2>
        <ButtonLink to="/admin/teachers" variant="secondary">
          All teachers
        </ButtonLink>
      </div>
      {params.get('added') ? (
        <p className={styles.notice} role="status">
          Teacher added{data.status === 'draft' ? ' as a draft: publish them below when ready' : ''}.
        </p>
      ) : null}
      <section aria-labelledby="status-heading">
        <h3 id="status-heading" className={styles.title}>
          Status
        </h3>
        <TeacherFormStatus teacher={data} />
      </section>
      <section aria-labelledby="card-heading">
        <h3 id="card-heading" className={styles.title}>
          Card
        </h3>
        <TeacherForm teacher={data} key={data.id} />
      </section>
      {/* the teacher's own account: invite them to this profile (decision 109) */}
      <InviteForm teacherId={data.id} />
    </div>
  );
}

function TeachersTab({ rest }: { rest: string }) {
  const id = idOf(rest);
  if (id === 'new') {
    return (
      <div>
        <div className={styles.header}>
          <h2 className={styles.title}>Add teacher</h2>
          <ButtonLink to="/admin/teachers" variant="secondary">
            All teachers
          </ButtonLink>
        </div>
        <TeacherForm />
      </div>
    );
  }
  return id ? <EditTeacher id={id} /> : <TeachersTable />;
}

/** /admin, /admin/teachers (the table), /admin/teachers/new, /admin/teachers/:id — fetched on the server. */
export const teachersTab: ConsoleTabPage = {
  Component: TeachersTab,
  prefetch: async ({ dispatch, searchParams, rest }) => {
    const id = idOf(rest);
    if (rest !== '' && !id) return 'not-found';
    if (id === 'new') return undefined;
    if (id) {
      const result = await dispatch(staffConsoleApi.endpoints.getStaffTeacher.initiate(id));
      return result.isError ? 'not-found' : undefined;
    }
    await dispatch(staffConsoleApi.endpoints.getStaffTeachers.initiate(teachersQueryOf(searchParams)));
    return undefined;
  },
};
