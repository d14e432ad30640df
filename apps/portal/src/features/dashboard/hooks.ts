import { useQuery } from '@tanstack/react-query';
import { domainRoutes, routeOf, type Domain } from '@platform/contracts';
import { call } from '../../api/client';

/** How many of the newest domains the dashboard reads (10 pages of 100). */
export const DASHBOARD_SAMPLE = 1000;

/** The newest domains of every status (inactive ones too), up to DASHBOARD_SAMPLE. */
export function useRecentDomains() {
  return useQuery({
    queryKey: ['domains', 'dashboard'],
    queryFn: async () => {
      const list = routeOf(domainRoutes, 'listDomains');
      const read = async (query: Record<string, string | number>) => {
        const rows: Domain[] = [];
        for (let page = 1; rows.length < DASHBOARD_SAMPLE; page++) {
          const answer = await call(list, { query: { ...query, page, limit: 100 } });
          rows.push(...answer.result);
          if (!answer.meta.next_page) return { rows, complete: true };
        }
        return { rows, complete: false };
      };
      const [active, inactive] = await Promise.all([read({}), read({ status: 'INACTIVE' })]);
      return { domains: [...active.rows, ...inactive.rows], complete: active.complete && inactive.complete };
    },
  });
}
