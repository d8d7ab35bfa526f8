import toast from 'react-hot-toast';
import type { Invitation } from '@learnlingo/contract';
import { Button } from '../../components/ui/button';
import { genericErrorMessage } from '../../lib/api-error';
import { useListInvitationsQuery, useResendInvitationMutation, useRevokeInvitationMutation } from './invite-api';
import { formatInstant } from './activity-format';
import styles from './invite.module.css';

const STATUS: Record<Invitation['status'], string> = { pending: 'Waiting', used: 'Accepted', revoked: 'Revoked', expired: 'Expired' };

function InvitationRow({ invitation }: { invitation: Invitation }) {
  const [resend, resending] = useResendInvitationMutation();
  const [revoke, revoking] = useRevokeInvitationMutation();
  const busy = resending.isLoading || revoking.isLoading;
  const open = invitation.status === 'pending' || invitation.status === 'expired';
  const act = async (what: 'resend' | 'revoke') => {
    const result = await (what === 'resend' ? resend : revoke)(invitation);
    if (result.error) toast.error(genericErrorMessage(result.error));
    else toast.success(what === 'resend' ? `A new link was sent to ${invitation.email}.` : 'The invitation is revoked: its link no longer works.');
  };
  return (
    <li className={styles.invitation}>
      <span className={styles.invitee}>{invitation.email}</span>
      <span className={styles.status}>
        {STATUS[invitation.status]}
        {open ? ` · until ${formatInstant(invitation.expiresAt)}` : ''}
      </span>
      {open ? (
        <span className={styles.actions}>
          <Button variant="secondary" disabled={busy} onClick={() => void act('resend')}>
            Re-send
          </Button>
          <Button variant="ghost" disabled={busy} onClick={() => void act('revoke')}>
            Revoke
          </Button>
        </span>
      ) : null}
    </li>
  );
}

/** A profile's account (once bound) and its invitations, newest first, with Re-send and Revoke. */
export function InviteList({ teacherId }: { teacherId: string }) {
  const { data, isError } = useListInvitationsQuery(teacherId);
  if (isError) return <p className={styles.note}>No invitations to show for the profile “{teacherId}”.</p>;
  if (!data) return null;
  return (
    <div className={styles.list} aria-label={`Invitations of ${teacherId}`} role="group">
      <p className={styles.note}>
        {data.account ? `The profile ${teacherId} belongs to ${data.account.name} (${data.account.email}).` : `The profile ${teacherId} has no account yet.`}
      </p>
      {data.items.length > 0 ? (
        <ul className={styles.invitations}>
          {data.items.map((invitation) => (
            <InvitationRow key={invitation.id} invitation={invitation} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
