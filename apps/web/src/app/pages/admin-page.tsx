import { Navigate, useLocation } from 'react-router';
import { useAppSelector } from '../../store';
import { useHead } from '../../lib/head';
import { Spinner } from '../../components/ui/spinner';
import type { PageModule } from '../page-module';
import { selectIsLoggedIn, selectIsRefresh, selectUser } from '../../features/auth';
import { ConsoleLayout, consoleTabOf, InviteAcceptPage, prefetchInvite } from '../../features/admin';
import { Component as NotFoundPage } from './not-found-page';

/*
 * /admin/* (decision 109): a visitor is redirected to `/`; a signed-in user who is not an
 * admin, or a path that is no tab, gets the not-found page (404). The API answers 403 anyway.
 * /invite (an invitation's link, for whoever holds it) is in this module too: one lazy route
 * module for both, so the first load's route table grows by one name, not two.
 */
export const prefetch: PageModule['prefetch'] = async ({ dispatch, pathname, searchParams, signedIn, role }) => {
  if (pathname === '/invite') return prefetchInvite({ dispatch, searchParams });
  if (!signedIn) return 'visitor';
  const found = role === 'admin' ? consoleTabOf(pathname) : null;
  if (!found) return 'not-found';
  return (await found.tab.page.prefetch?.({ dispatch, searchParams, rest: found.rest })) ?? undefined;
};

function Console() {
  const found = consoleTabOf(useLocation().pathname);
  useHead({ title: `${found?.tab.label ?? 'Console'} · School console · LearnLingo`, noindex: true });
  return found ? <ConsoleLayout tab={found.tab} rest={found.rest} /> : <NotFoundPage />;
}

function AdminPage() {
  const isRefresh = useAppSelector(selectIsRefresh);
  const isLoggedIn = useAppSelector(selectIsLoggedIn);
  const isAdmin = useAppSelector(selectUser).role === 'admin';
  if (isRefresh) return <Spinner label="Restoring your session" />;
  if (!isLoggedIn) return <Navigate to="/" replace />;
  return isAdmin ? <Console /> : <NotFoundPage />;
}

function InvitePage() {
  useHead({ title: 'Your teacher account · LearnLingo', noindex: true });
  return <InviteAcceptPage />;
}

export function Component() {
  return useLocation().pathname === '/invite' ? <InvitePage /> : <AdminPage />;
}
