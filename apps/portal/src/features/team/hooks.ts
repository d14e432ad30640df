import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { call } from '../../api/client';
import { teamRoutes } from '../../api/pending.routes';
import type { inviteUserBodySchema, updateUserBodySchema } from '../../api/pending.schema';

const KEYS = ['users'] as const;

export function useUsers() {
  return useQuery({
    queryKey: KEYS,
    queryFn: async () => (await call(teamRoutes.listUsers, { query: { limit: 100 } })).result,
  });
}

function useUserMutation<I, O>(run: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSuccess: () => client.invalidateQueries({ queryKey: KEYS }) });
}

export const useInviteUser = () =>
  useUserMutation(
    async (body: z.output<typeof inviteUserBodySchema>) => (await call(teamRoutes.inviteUser, { body })).result,
  );
export const useUpdateUser = () =>
  useUserMutation(({ userId, ...body }: { userId: string } & z.output<typeof updateUserBodySchema>) =>
    call(teamRoutes.updateUser, { params: { userId }, body }),
  );
export const useRemoveUser = () =>
  useUserMutation((userId: string) => call(teamRoutes.removeUser, { params: { userId } }));
export const useReinviteUser = () =>
  useUserMutation((userId: string) => call(teamRoutes.reinviteUser, { params: { userId } }));
