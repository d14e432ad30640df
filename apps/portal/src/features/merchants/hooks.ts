import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { merchantRoutes, routeOf, type CreateMerchantBody, type UpdateMerchantBody } from '@platform/contracts';
import { call, type CallInput } from '../../api/client';

const listRoute = routeOf(merchantRoutes, 'listMerchants');
const keys = { all: ['merchants'] as const };

export function useMerchantList(query: CallInput<typeof listRoute>['query']) {
  return useQuery({
    queryKey: [...keys.all, 'list', query],
    queryFn: () => call(listRoute, { query }),
    placeholderData: keepPreviousData,
  });
}

export function useMerchant(merchantId: string | undefined) {
  return useQuery({
    queryKey: [...keys.all, 'detail', merchantId],
    queryFn: async () =>
      (await call(routeOf(merchantRoutes, 'getMerchant'), { params: { merchantId: merchantId ?? '' } })).result,
    enabled: !!merchantId,
  });
}

/** Create (no id) or update (an id) a merchant; the lists refresh afterwards. */
export function useSaveMerchant(merchantId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateMerchantBody | UpdateMerchantBody) =>
      merchantId
        ? (await call(routeOf(merchantRoutes, 'updateMerchant'), { params: { merchantId }, body })).result
        : (await call(routeOf(merchantRoutes, 'createMerchant'), { body: body as CreateMerchantBody })).result,
    onSuccess: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useDeleteMerchant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (merchantId: string) => call(routeOf(merchantRoutes, 'deleteMerchant'), { params: { merchantId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}
