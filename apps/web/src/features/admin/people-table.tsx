import toast from 'react-hot-toast';
import { ROLES, type Role } from '@learnlingo/contract/plain';
import type { Person } from '@learnlingo/contract';
import { Button } from '../../components/ui/button';
import { Select } from '../../components/ui/select';
import { genericErrorMessage } from '../../lib/api-error';
import { useSetActiveMutation, useSetRoleMutation } from './people-api';
import styles from './people.module.css';

const ROLE_LABELS: Record<Role, string> = { learner: 'Learner', teacher: 'Teacher', admin: 'Admin' };
const ROLE_OPTIONS = ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

/** One account: its role (changed at once), whether it may sign in, and the switch. */
function PersonRow({ person }: { person: Person }) {
  const [setRole, role] = useSetRoleMutation();
  const [setActive, active] = useSetActiveMutation();
  const busy = role.isLoading || active.isLoading;

  const changeRole = async (next: Role) => {
    const result = await setRole({ id: person.id, role: next });
    if (result.error) toast.error(genericErrorMessage(result.error));
    else toast.success(`${person.name} is now ${ROLE_LABELS[next].toLowerCase()}.`);
  };
  const toggle = async () => {
    const result = await setActive({ id: person.id, active: person.banned });
    if (result.error) toast.error(genericErrorMessage(result.error));
    else toast.success(person.banned ? `${person.name} can sign in again.` : `${person.name} is deactivated: signed out everywhere.`);
  };

  return (
    <tr>
      <td data-label="Name" className={styles.name}>
        {person.name}
      </td>
      <td data-label="E-mail" className={styles.email}>
        {person.email}
      </td>
      <td data-label="Role">
        <Select
          label={`Role of ${person.name}`}
          className={styles.roleSelect}
          outlined
          options={ROLE_OPTIONS}
          value={person.role}
          disabled={busy}
          onChange={(event) => void changeRole(event.target.value as Role)}
        />
        {person.teacherId ? <span className={styles.hint}>Profile {person.teacherId}</span> : null}
      </td>
      <td data-label="Status">
        <span className={person.banned ? styles.deactivated : styles.active}>{person.banned ? 'Deactivated' : 'Active'}</span>
      </td>
      <td data-label="Action">
        <Button
          variant="secondary"
          className={styles.action}
          disabled={busy}
          aria-label={`${person.banned ? 'Reactivate' : 'Deactivate'} ${person.name}`}
          onClick={() => void toggle()}
        >
          {person.banned ? 'Reactivate' : 'Deactivate'}
        </Button>
      </td>
    </tr>
  );
}

/** The page's accounts: a table from 1024 px, a card per account below. */
export function PeopleTable({ people, busy }: { people: Person[]; busy: boolean }) {
  return (
    <table className={styles.table} aria-busy={busy}>
      <caption className="visually-hidden">Accounts</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">E-mail</th>
          <th scope="col">Role</th>
          <th scope="col">Status</th>
          <th scope="col">
            <span className="visually-hidden">Action</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {people.map((person) => (
          <PersonRow key={person.id} person={person} />
        ))}
      </tbody>
    </table>
  );
}
