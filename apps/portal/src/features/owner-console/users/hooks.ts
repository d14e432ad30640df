import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AccessRole } from '@platform/contracts';
import { ApiError, call } from '../../../api/client';
import { ownerKeys, ownerRoute } from '../api';
import { OWNER_SESSION_KEY } from '../session';

export const inviteRoute = ownerRoute('inviteOwnerUser');
export const updateRoute = ownerRoute('updateOwnerUser');
export const removeRoute = ownerRoute('deleteOwnerUser');

export function useOwnerUsers() {
  return useQuery({
    queryKey: ownerKeys.users,
    queryFn: async () => (await call(ownerRoute('listOwnerUsers'), { query: { limit: 100 } })).result,
  });
}

/** A change to the users refreshes the list, and the session (the owner may have changed their own role). */
function useUsersMutation<I, O>(run: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: OWNER_SESSION_KEY });
      await client.invalidateQueries({ queryKey: ownerKeys.users });
    },
  });
}

export const useInviteOwnerUser = () =>
  useUsersMutation(
    async (body: { email: string; role: AccessRole; name?: string }) => (await call(inviteRoute, { body })).result,
  );
export const useUpdateOwnerUser = () =>
  useUsersMutation(
    async ({ userId, ...body }: { userId: string; role?: AccessRole; access?: boolean }) =>
      (await call(updateRoute, { params: { userId }, body })).result,
  );
export const useRemoveOwnerUser = () =>
  useUsersMutation(async (userId: string) => (await call(removeRoute, { params: { userId } })).result);

/** What the users screen says about a refused change: the last owner in plain words, else the portal's message. */
export function userChangeError(error: unknown, fallback: (e: unknown) => string, self: boolean): string {
  if (error instanceof ApiError && error.code === 'ACCESS_USER.LAST_OWNER')
    return self
      ? 'You are the account’s only owner with access. Make someone else an owner first, then try again.'
      : 'This is the account’s only owner with access. Make someone else an owner first, then try again.';
  if (error instanceof ApiError && error.code === 'AUTH.FORBIDDEN')
    return 'Only an owner can give, change or take the owner role.';
  return fallback(error);
}
