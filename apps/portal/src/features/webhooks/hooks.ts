import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routeOf, webhookRoutes } from '@platform/contracts';
import { call, type CallInput } from '../../api/client';

export const webhookRoute = <K extends (typeof webhookRoutes)[number]['operationId']>(id: K) =>
  routeOf(webhookRoutes, id);
const KEYS = ['webhooks'] as const;

export function useEndpoints() {
  return useQuery({
    queryKey: [...KEYS, 'list'],
    queryFn: async () => (await call(webhookRoute('listWebhookEndpoints'), { query: { limit: 100 } })).result,
  });
}

export function useEventTypes() {
  return useQuery({
    queryKey: ['webhook-event-types'],
    queryFn: async () => (await call(webhookRoute('listWebhookEventTypes'))).result,
    staleTime: 10 * 60_000,
  });
}

export function useEndpoint(endpointId: string) {
  return useQuery({
    queryKey: [...KEYS, 'detail', endpointId],
    queryFn: async () => (await call(webhookRoute('getWebhookEndpoint'), { params: { endpointId } })).result,
  });
}

type DeliveriesQuery = CallInput<ReturnType<typeof webhookRoute<'listWebhookDeliveries'>>>['query'];

export function useDeliveries(endpointId: string, query: DeliveriesQuery) {
  return useQuery({
    queryKey: [...KEYS, 'deliveries', endpointId, query],
    queryFn: () => call(webhookRoute('listWebhookDeliveries'), { params: { endpointId }, query }),
    placeholderData: keepPreviousData,
    // Pending deliveries move on their own: look again while any is pending.
    refetchInterval: (q) => (q.state.data?.result.some((d) => d.status === 'pending') ? 5000 : false),
  });
}

/** A mutation that refreshes endpoints and deliveries afterwards. */
export function useWebhookMutation<I, O>(run: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => client.invalidateQueries({ queryKey: KEYS }) });
}
