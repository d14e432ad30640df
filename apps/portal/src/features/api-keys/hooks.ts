import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { call } from '../../api/client';
import type { createApiKeyBodySchema } from '../../api/pending.schema';
import { apiKeyRoutes } from '../../api/pending.routes';

const KEYS = ['api-keys'] as const;

export function useApiKeys() {
  return useQuery({
    queryKey: KEYS,
    queryFn: async () => (await call(apiKeyRoutes.listApiKeys, { query: { limit: 100 } })).result,
  });
}

function useKeyMutation<I, O>(run: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => client.invalidateQueries({ queryKey: KEYS }) });
}

export const useCreateApiKey = () =>
  useKeyMutation(
    async (body: z.output<typeof createApiKeyBodySchema>) => (await call(apiKeyRoutes.createApiKey, { body })).result,
  );
export const useRevokeApiKey = () =>
  useKeyMutation((keyId: string) => call(apiKeyRoutes.revokeApiKey, { params: { keyId } }));
export const useRollApiKey = () =>
  useKeyMutation(
    async ({ keyId, overlap_hours }: { keyId: string; overlap_hours: number }) =>
      (await call(apiKeyRoutes.rollApiKey, { params: { keyId }, body: { overlap_hours } })).result,
  );
