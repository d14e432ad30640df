import type { InternalCaller } from '@platform/auth';
import type { merchantRoutes } from '@platform/contracts';
import { reply, type Handlers } from '@platform/http';
import type { MerchantsContext } from '../domain/context';
import {
  createMerchant,
  deleteMerchant,
  getMerchant,
  listMerchants,
  updateMerchant,
} from '../domain/merchants.service';
import { toMerchant } from './merchant.presenter';

/** The partner's merchants, by operationId. */
export function merchantHandlers(
  ctx: Pick<MerchantsContext, 'db' | 'catalogue' | 'domains'>,
): Handlers<(typeof merchantRoutes)[number], InternalCaller> {
  const { db, catalogue } = ctx;
  return {
    listMerchants: async ({ caller, query }) => {
      const page = await listMerchants(db, caller.partnerId, query);
      return { meta: page.meta, result: page.items.map(toMerchant) };
    },
    createMerchant: async ({ caller, body }) =>
      reply(201, { result: toMerchant(await createMerchant(db, catalogue, caller.partnerId, body)) }),
    getMerchant: async ({ caller, params }) => ({
      result: toMerchant(await getMerchant(db, caller.partnerId, params.merchantId)),
    }),
    updateMerchant: async ({ caller, params, body }) => ({
      result: toMerchant(await updateMerchant(ctx, caller.partnerId, params.merchantId, body)),
    }),
    deleteMerchant: async ({ caller, params }) => {
      await deleteMerchant(ctx, caller.partnerId, params.merchantId);
      return { result: { deleted: true } };
    },
  };
}
