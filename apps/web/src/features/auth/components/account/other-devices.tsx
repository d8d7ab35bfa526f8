import toast from 'react-hot-toast';
import { accountMessages } from '@learnlingo/contract';
import { Button } from '../../../../components/ui/button';
import { genericErrorMessage } from '../../../../lib/api-error';
import { useRevokeOtherSessionsMutation } from '../../api/auth-api';
import styles from './account.module.css';

/** Ends every session of this user but this one (a lost phone, a shared computer). */
export function OtherDevices() {
  const [revoke, { isLoading }] = useRevokeOtherSessionsMutation();

  const signOutOthers = async () => {
    const result = await revoke();
    if (result.error) toast.error(genericErrorMessage(result.error));
    else toast.success(accountMessages.otherSessionsEnded);
  };

  return (
    <section className={styles.card} aria-labelledby="account-devices">
      <h2 id="account-devices" className={styles.cardTitle}>
        Other devices
      </h2>
      <p className={styles.cardText}>Signed in on a phone or computer you no longer use? Sign out everywhere but here.</p>
      <div className={styles.actions}>
        <Button variant="secondary" disabled={isLoading} onClick={() => void signOutOthers()}>
          Sign out other devices
        </Button>
      </div>
    </section>
  );
}
