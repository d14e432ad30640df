// The import screen's calls: the upload (a dry run, then the import), the import polled until its job
// is done, and its rows page by page.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  domainImportRoutes,
  importBodySchema,
  routeOf,
  type DomainImport,
  type ImportStatus,
} from '@platform/contracts';
import { call, multipart, type MultipartFields } from '../../api/client';
import { domainKeys } from '../domains/hooks';

export const createImportRoute = routeOf(domainImportRoutes, 'createDomainImport');
export const templateRoute = routeOf(domainImportRoutes, 'getDomainImportTemplate');
const getImportRoute = routeOf(domainImportRoutes, 'getDomainImport');
const listRowsRoute = routeOf(domainImportRoutes, 'listDomainImportRows');

/** What the form sends, but dry_run (the preview and the import send the same file and choices). */
export type ImportChoice = Omit<MultipartFields<typeof createImportRoute>, 'dry_run'>;

/** The action and mode the API takes when none is sent: the form starts with them. */
export const IMPORT_DEFAULTS = {
  action: importBodySchema.shape.action.parse(undefined),
  mode: importBodySchema.shape.mode.parse(undefined),
};

const upload = async (choice: ImportChoice, dryRun: boolean) =>
  (
    await call(createImportRoute, {
      body: multipart(createImportRoute, { ...choice, dry_run: dryRun ? 'true' : 'false' }),
    })
  ).result;

/** The dry run: the plan, nothing stored. */
export function usePreviewImport() {
  return useMutation({
    mutationFn: async (choice: ImportChoice) => {
      const answer = await upload(choice, true);
      if (!answer.dry_run) throw new Error('The API ran an import where a dry run was asked for.');
      return answer;
    },
  });
}

/** The import itself (202, QUEUED): its job runs the rows. */
export function useStartImport() {
  return useMutation({
    mutationFn: async (choice: ImportChoice) => {
      const answer = await upload(choice, false);
      if (answer.dry_run) throw new Error('The API answered a plan where an import was asked for.');
      return answer;
    },
  });
}

const FINISHED: readonly ImportStatus[] = ['COMPLETED', 'FAILED'];
export const isFinished = (i: DomainImport) => FINISHED.includes(i.status);
/** How often a running import is asked for its progress. */
const POLL_MS = 1000;

const importKeys = {
  detail: (id: string) => ['imports', id] as const,
  rows: (id: string, page: number) => ['imports', id, 'rows', page] as const,
};

/** The import, asked again every second until its job has finished; the domain lists are refreshed then. */
export function useImportProgress(started: DomainImport) {
  const client = useQueryClient();
  return useQuery({
    queryKey: importKeys.detail(started.id),
    queryFn: async () => {
      const { result } = await call(getImportRoute, { params: { importId: started.id } });
      if (isFinished(result)) void client.invalidateQueries({ queryKey: domainKeys.all });
      return result;
    },
    initialData: started,
    // The 202's import is as fresh as it gets: the first poll waits its interval like the others.
    initialDataUpdatedAt: Date.now(),
    refetchInterval: (q) => (q.state.data && isFinished(q.state.data) ? false : POLL_MS),
  });
}

export const ROWS_PER_PAGE = 20;

export function useImportRows(importId: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: importKeys.rows(importId, page),
    queryFn: () => call(listRowsRoute, { params: { importId }, query: { page, limit: ROWS_PER_PAGE } }),
    enabled,
    placeholderData: keepPreviousData,
  });
}
