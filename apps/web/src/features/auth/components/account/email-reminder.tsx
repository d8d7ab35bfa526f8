import toast from 'react-hot-toast';
import { accountMessages } from '@learnlingo/contract';
import { genericErrorMessage } from '../../../../lib/api-error';
import { useGetSessionQuery, useSendVerificationEmailMutation } from '../../api/auth-api';
import styles from './account.module.css';

/** How the confirmation link came back to /account: `?email=confirmed`, with `&error=…` when it did not work. */
export type ConfirmationReturn = 'confirmed' | 'failed' | null;

/** The account's address and whether it is confirmed (the session says; nothing while it is not known). */
export function EmailStatus({ email }: { email: string }) {
  const verified = useGetSessionQuery().data?.user?.emailVerified;
  return (
    <p className={styles.lead}>
      {email}
      {verified === undefined ? null : (
        <span className={styles.emailState} data-confirmed={verified}>
          {verified ? 'Confirmed' : 'Not confirmed yet'}
        </span>
      )}
    </p>
  );
}

/**
 * What the confirmation link did (just back from it), and a quiet note while the e-mail is
 * unconfirmed (everything works meanwhile), with a new link on request.
 */
export function EmailReminder({ returned = null }: { returned?: ConfirmationReturn }) {
  const { data: session } = useGetSessionQuery();
  const [send, { isLoading }] = useSendVerificationEmailMutation();
  const user = session?.user;
  const confirmedNow = returned === 'confirmed' && user?.emailVerified === true;

  const resend = async () => {
    if (!user) return;
    const result = await send({ email: user.email });
    if (result.error) toast.error(genericErrorMessage(result.error));
    else toast.success(accountMessages.verificationSent);
  };

  return (
    <>
      {confirmedNow ? (
        <p className={styles.notice} data-tone="success" role="status">
          {accountMessages.emailConfirmed}
        </p>
      ) : null}
      {user?.emailVerified === false ? (
        <p className={styles.notice} role={returned === 'failed' ? 'alert' : undefined}>
          <span>
            {returned === 'failed' ? `${accountMessages.confirmationLinkInvalid} ` : null}
            Please confirm your email: we sent a link to <strong>{user.email}</strong>.
          </span>
          <button type="button" className={styles.textButton} disabled={isLoading} onClick={() => void resend()}>
            Send the link again
          </button>
        </p>
      ) : null}
    </>
  );
}
