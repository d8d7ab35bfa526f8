import { useSearchParams } from 'react-router';
import { accountPageStyles as styles, InvalidResetLink, ResetPasswordForm } from '../../features/auth/account';

/** The token of an e-mailed link: long random letters and digits (a cap before anything reads it). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,256}$/;

/** /reset-password?token=…: whoever holds the link sets a new password. */
export function Component() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const usable = TOKEN_PATTERN.test(token) && !search.has('error');

  return (
    <div className={styles.page}>
      <div className={styles.column}>
        <title>Set a new password · LearnLingo</title>
        <h1 className={styles.heading}>Set a new password</h1>
        <div className={styles.card}>
          {usable ? (
            <>
              <p className={styles.cardText}>
                Choose a new password for your account. Every device signed in to it will be signed out.
              </p>
              <ResetPasswordForm token={token} />
            </>
          ) : (
            <InvalidResetLink />
          )}
        </div>
      </div>
    </div>
  );
}
