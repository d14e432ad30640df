import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiKeyRoutes, routeOf, type createApiKeyBodySchema } from '@platform/contracts';
import type { z } from 'zod';
import { call } from '../../api/client';
import type { ApiKey } from '../../api/types';

const KEYS = ['api-keys'] as const;

/** A key's label: its name, or its prefix for an unnamed one. */
export const keyLabel = (key: ApiKey) => key.name ?? key.prefix;

export function useApiKeys() {
  return useQuery({
    queryKey: KEYS,
    queryFn: async () => (await call(routeOf(apiKeyRoutes, 'listApiKeys'), { query: { limit: 100 } })).result,
  });
}

function useKeyMutation<I, O>(run: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => client.invalidateQueries({ queryKey: KEYS }) });
}

export const useCreateApiKey = () =>
  useKeyMutation(
    async (body: z.output<typeof createApiKeyBodySchema>) =>
      (await call(routeOf(apiKeyRoutes, 'createApiKey'), { body })).result,
  );
export const useRevokeApiKey = () =>
  useKeyMutation((keyId: string) => call(routeOf(apiKeyRoutes, 'revokeApiKey'), { params: { keyId } }));
export const useRollApiKey = () =>
  useKeyMutation(
    async ({ keyId, overlap_hours }: { keyId: string; overlap_hours: number }) =>
      (await call(routeOf(apiKeyRoutes, 'rollApiKey'), { params: { keyId }, body: { overlap_hours } })).result,
  );
