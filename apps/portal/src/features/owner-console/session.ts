// The owner console's session (audience OWNER, cookie pp_owner_session): one query the guard, the shell
// and the screens read; the partner portal's session (auth/session.tsx) is another, untouched.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ownerSessionRoutes, routeOf, type OwnerSession } from '@platform/contracts';
import { useCallback, useEffect } from 'react';
import { ApiError, call, setCsrfToken, setSessionEndedHandler } from '../../api/client';

export const OWNER_SESSION_KEY = ['owner-session'] as const;
/** The last partner whose console this browser signed in to: a used link's message names them. */
const PARTNER_NAME_KEY = 'owner.partner-name';

async function fetchOwnerSession(): Promise<OwnerSession | null> {
  try {
    return (await call(routeOf(ownerSessionRoutes, 'getOwnerSession'))).result;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** The owner's session (null when signed out); pending while it is being read. */
export function useOwnerSession() {
  const client = useQueryClient();
  const query = useQuery({ queryKey: OWNER_SESSION_KEY, queryFn: fetchOwnerSession, staleTime: Infinity, retry: 1 });
  useEffect(() => {
    setCsrfToken(query.data?.csrf_token);
    if (query.data) localStorage.setItem(PARTNER_NAME_KEY, query.data.partner.name);
  }, [query.data]);
  useEffect(() => {
    // A console call answered 401 (the session ended meanwhile): the guard sends the owner to sign-in.
    setSessionEndedHandler(() => client.setQueryData(OWNER_SESSION_KEY, null));
  }, [client]);
  return query;
}

/** Puts a session answered by sign-in (or null after sign-out) in place, with its CSRF token. */
export function useSetOwnerSession() {
  const client = useQueryClient();
  return useCallback(
    (session: OwnerSession | null) => {
      setCsrfToken(session?.csrf_token);
      void client.cancelQueries({ queryKey: OWNER_SESSION_KEY });
      client.setQueryData(OWNER_SESSION_KEY, session);
    },
    [client],
  );
}

/** Who to ask for a new link: the partner of the session at hand, or of this browser's last one. */
export const rememberedPartnerName = (): string | null => localStorage.getItem(PARTNER_NAME_KEY);
