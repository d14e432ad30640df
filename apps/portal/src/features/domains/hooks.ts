import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  domainRoutes,
  productRoutes,
  routeOf,
  scanRoutes,
  subdomainRoutes,
  subscriptionChangeRoutes,
} from '@platform/contracts';
import { ApiError, call, type CallInput } from '../../api/client';

export const listDomainsRoute = routeOf(domainRoutes, 'listDomains');
export const createDomainRoute = routeOf(domainRoutes, 'createDomain');
const getDomainRoute = routeOf(domainRoutes, 'getDomain');

export const domainKeys = {
  all: ['domains'] as const,
  list: (query: unknown) => ['domains', 'list', query] as const,
  detail: (id: string) => ['domains', 'detail', id] as const,
};

export function useDomainList(query: CallInput<typeof listDomainsRoute>['query']) {
  return useQuery({
    queryKey: domainKeys.list(query),
    queryFn: () => call(listDomainsRoute, { query }),
    placeholderData: keepPreviousData,
  });
}

export function useDomain(domainId: string) {
  return useQuery({
    queryKey: domainKeys.detail(domainId),
    queryFn: async () => (await call(getDomainRoute, { params: { domainId } })).result,
  });
}

export function useSubdomains(domainId: string) {
  return useQuery({
    queryKey: [...domainKeys.detail(domainId), 'subdomains'],
    queryFn: async () => (await call(routeOf(subdomainRoutes, 'listSubdomains'), { params: { domainId } })).result,
  });
}

/** The latest scan report; null when the domain was never scanned (the API's 404). */
export function useLatestScan(domainId: string) {
  return useQuery({
    queryKey: [...domainKeys.detail(domainId), 'scan'],
    queryFn: async () => {
      try {
        return (await call(routeOf(scanRoutes, 'getDomainScan'), { params: { domainId } })).result;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    refetchInterval: (q) => (q.state.data && ['queued', 'running'].includes(q.state.data.status) ? 3000 : false),
  });
}

export function useProducts() {
  return useQuery({
    queryKey: ['products'],
    queryFn: async () => (await call(routeOf(productRoutes, 'listProducts'))).result,
    staleTime: 5 * 60_000,
  });
}

/** A mutation on one domain that refreshes the domain and every list afterwards. */
export function useDomainAction<T>(domainId: string, run: (domainId: string) => Promise<T>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => run(domainId),
    onSuccess: () => client.invalidateQueries({ queryKey: domainKeys.all }),
  });
}

export const domainActions = {
  invite: (domainId: string) => call(routeOf(domainRoutes, 'inviteDomain'), { params: { domainId }, body: {} }),
  deactivate: (domainId: string) => call(routeOf(domainRoutes, 'deactivateDomain'), { params: { domainId } }),
  activate: (domainId: string) => call(routeOf(domainRoutes, 'activateDomain'), { params: { domainId } }),
  remove: (domainId: string) => call(routeOf(domainRoutes, 'deleteDomain'), { params: { domainId } }),
  scan: (domainId: string) => call(routeOf(scanRoutes, 'startDomainScan'), { params: { domainId } }),
  addSubdomain: (domainId: string, subdomain: string) =>
    call(routeOf(subdomainRoutes, 'createSubdomain'), { params: { domainId }, body: { subdomain } }),
  removeSubdomain: (domainId: string, subdomain: string) =>
    call(routeOf(subdomainRoutes, 'deleteSubdomain'), { params: { domainId, subdomain } }),
  changeProduct: (domainId: string, product: string) =>
    call(routeOf(subscriptionChangeRoutes, 'changeSubscriptionProduct'), { params: { domainId }, body: { product } }),
};
