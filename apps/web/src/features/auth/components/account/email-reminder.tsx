import toast from 'react-hot-toast';
import { accountMessages } from '@learnlingo/contract';
import { genericErrorMessage } from '../../../../lib/api-error';
import { useGetSessionQuery, useSendVerificationEmailMutation } from '../../api/auth-api';
import styles from './account.module.css';

/** A quiet note while the e-mail is unconfirmed (everything works meanwhile), with a new link on request. */
export function EmailReminder() {
  const { data: session } = useGetSessionQuery();
  const [send, { isLoading }] = useSendVerificationEmailMutation();
  const user = session?.user;
  if (!user || user.emailVerified !== false) return null;

  const resend = async () => {
    const result = await send({ email: user.email });
    if (result.error) toast.error(genericErrorMessage(result.error));
    else toast.success(accountMessages.verificationSent);
  };

  return (
    <p className={styles.notice}>
      <span>
        Please confirm your email: we sent a link to <strong>{user.email}</strong>.
      </span>
      <button type="button" className={styles.textButton} disabled={isLoading} onClick={() => void resend()}>
        Send the link again
      </button>
    </p>
  );
}
