import { useQuery } from '@tanstack/react-query';
import { consentFigureRoutes, routeOf } from '@platform/contracts';
import { call } from '../../api/client';
import { rangeOf } from './figures';

/** One domain's figures for the last `days` days (consent-svc's counters). */
export const useDomainFigures = (domainId: string, days: number) =>
  useQuery({
    queryKey: ['figures', 'domain', domainId, days],
    queryFn: async () =>
      (
        await call(routeOf(consentFigureRoutes, 'getPropertyStats'), {
          query: { domain_id: domainId, ...rangeOf(days) },
        })
      ).result,
  });

/** All the partner's domains' figures summed. */
export const usePortfolioFigures = (days: number) =>
  useQuery({
    queryKey: ['figures', 'portfolio', days],
    queryFn: async () =>
      (await call(routeOf(consentFigureRoutes, 'getPortfolioStats'), { query: rangeOf(days) })).result,
  });
