// The signed-in session: one query everyone reads, the CSRF token handed to the API client, and
// the permission check the navigation and the actions use.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError, call, setCsrfToken, setSessionEndedHandler } from '../api/client';
import { sessionRoutes } from '../api/pending.routes';
import type { Session } from '../api/pending.schema';

export const SESSION_KEY = ['session'] as const;

async function fetchSession(): Promise<Session | null> {
  try {
    return (await call(sessionRoutes.getSession)).result;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** The session (null when signed out); undefined while it is being read. */
export function useSession() {
  const client = useQueryClient();
  const query = useQuery({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: Infinity, retry: 1 });
  useEffect(() => {
    setCsrfToken(query.data?.csrf_token);
  }, [query.data]);
  useEffect(() => {
    setSessionEndedHandler(() => {
      client.setQueryData(SESSION_KEY, null);
      sessionStorage.setItem('portal.session-ended', '1');
    });
  }, [client]);
  return query;
}

/** Puts a session answered by sign-in or TOTP in place (and its CSRF token at once). */
export function useSetSession() {
  const client = useQueryClient();
  return (session: Session | null) => {
    setCsrfToken(session?.csrf_token);
    // A session check still in flight (the signed-out 401 of the sign-in page) must not overwrite this one.
    void client.cancelQueries({ queryKey: SESSION_KEY });
    client.setQueryData(SESSION_KEY, session);
  };
}

export const can = (session: Session | null | undefined, permission: string) =>
  !!session && session.permissions.includes(permission);
