import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateDataRequestBody } from '@platform/contracts';
import { call } from '../../../api/client';
import { ownerKeys, ownerRoute } from '../api';

export const listRequestsRoute = ownerRoute('listOwnerRequests');
export const updateRequestRoute = ownerRoute('updateOwnerRequest');

/** A change to one request refreshes the domain's request list (its status, due date and history). */
export function useUpdateRequest(domainId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ requestId, body }: { requestId: string; body: UpdateDataRequestBody }) =>
      (await call(updateRequestRoute, { params: { domainId, requestId }, body })).result,
    onSuccess: () => client.invalidateQueries({ queryKey: ownerKeys.of(domainId, 'requests') }),
  });
}
