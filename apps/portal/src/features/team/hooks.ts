import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { routeOf, userRoutes, type createUserBodySchema, type updateUserBodySchema } from '@platform/contracts';
import type { z } from 'zod';
import { call } from '../../api/client';

const KEYS = ['users'] as const;

export function useUsers() {
  return useQuery({
    queryKey: KEYS,
    queryFn: async () => (await call(routeOf(userRoutes, 'listUsers'), { query: { limit: 100 } })).result,
  });
}

function useUserMutation<I, O>(run: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => client.invalidateQueries({ queryKey: KEYS }) });
}

export const useInviteUser = () =>
  useUserMutation(
    async (body: z.output<typeof createUserBodySchema>) =>
      (await call(routeOf(userRoutes, 'createUser'), { body })).result,
  );
export const useUpdateUser = () =>
  useUserMutation(({ userId, ...body }: { userId: string } & z.output<typeof updateUserBodySchema>) =>
    call(routeOf(userRoutes, 'updateUser'), { params: { userId }, body }),
  );
export const useRemoveUser = () =>
  useUserMutation(
    async (userId: string) => (await call(routeOf(userRoutes, 'deleteUser'), { params: { userId } })).result,
  );
export const useReinviteUser = () =>
  useUserMutation((userId: string) => call(routeOf(userRoutes, 'reinviteUser'), { params: { userId } }));
