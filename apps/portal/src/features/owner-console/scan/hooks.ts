import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, call } from '../../../api/client';
import { ownerKeys, ownerRoute } from '../api';

const OPEN = ['queued', 'running'];

/** The latest scan report; null when the site was never scanned (the API's 404). Read again every 2 s while it runs. */
export function useOwnerScan(domainId: string) {
  return useQuery({
    queryKey: ownerKeys.of(domainId, 'scan'),
    queryFn: async () => {
      try {
        return (await call(ownerRoute('getOwnerScan'), { params: { domainId } })).result;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    refetchInterval: (q) => (q.state.data && OPEN.includes(q.state.data.status) ? 2000 : false),
  });
}

export const isRunning = (status: string | undefined) => !!status && OPEN.includes(status);

/** The cookie declaration, read again whenever a scan finishes (the key carries its end). */
export function useCookieDeclaration(domainId: string, scanFinishedAt: string | null | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ownerKeys.of(domainId, 'cookie-declaration', scanFinishedAt ?? null),
    queryFn: async () => (await call(ownerRoute('getOwnerCookieDeclaration'), { params: { domainId } })).result,
    enabled,
  });
}

/** Scan again: the queued report replaces the latest (and is followed); a 409 means one runs already, so read it. */
export function useRescan(domainId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => (await call(ownerRoute('startOwnerScan'), { params: { domainId } })).result,
    onSuccess: (report) => client.setQueryData(ownerKeys.of(domainId, 'scan'), report),
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'DOMAIN.SCAN_IN_PROGRESS')
        void client.invalidateQueries({ queryKey: ownerKeys.of(domainId, 'scan') });
    },
  });
}

/** What to tell the owner when a rescan was refused (in progress, too soon), or why it failed. */
export function rescanRefusal(error: unknown, fallback: (e: unknown) => string): string {
  if (error instanceof ApiError && error.code === 'DOMAIN.SCAN_IN_PROGRESS')
    return 'A scan of this site is already running. Its report shows here when it finishes.';
  if (error instanceof ApiError && error.code === 'RATE.LIMITED') {
    const seconds = Number(error.data.retry_after);
    const minutes = Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds / 60) : undefined;
    const when = minutes === undefined ? 'a little later' : `in about ${minutes} minute${minutes === 1 ? '' : 's'}`;
    return `This site was scanned a short while ago. You can scan it again ${when}.`;
  }
  return fallback(error);
}
