import { useAppSelector } from '../hooks';
import { selectUser } from '../../features/auth';
import {
  accountPageStyles as styles,
  DeleteAccount,
  EmailReminder,
  NameForm,
  OtherDevices,
  PasswordForm,
} from '../../features/auth/account';

/** /account (signed in only): name, password, other devices, deleting the account. */
export function Component() {
  const user = useAppSelector(selectUser);
  return (
    <div className={styles.page}>
      <div className={styles.column}>
        <title>Account · LearnLingo</title>
        <h1 className={styles.heading}>Account</h1>
        <p className={styles.lead}>{user.email}</p>
        <EmailReminder />
        <NameForm />
        <PasswordForm />
        <OtherDevices />
        <DeleteAccount />
      </div>
    </div>
  );
}
