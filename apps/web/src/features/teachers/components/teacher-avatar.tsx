import { avatarPath } from '@learnlingo/contract/plain';
import { Avatar, type AvatarProps } from '../../../components/ui/avatar';

/**
 * A teacher's picture, always from this origin (`/avatars/:id/:version`, decision 093) and
 * never from the catalogue's source address, which the CSP would refuse; the initials
 * when the teacher has none.
 */
export function TeacherAvatar({ teacherId, source, ...props }: Omit<AvatarProps, 'src'> & { teacherId: string; source: string | null | undefined }) {
  return <Avatar src={avatarPath(teacherId, source)} {...props} />;
}
