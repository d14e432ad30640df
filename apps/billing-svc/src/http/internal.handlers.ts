import type { InternalCaller } from '@platform/auth';
import type { billingInternalRoutes } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import type { Handlers } from '@platform/http';
import type { BillingDb } from '../db/tables';
import { changeProducts } from '../domain/subscriptions.service';

/** Calls from other services (under /internal). */
export function internalHandlers(
  db: Kysely<BillingDb>,
): Handlers<(typeof billingInternalRoutes)[number], InternalCaller> {
  return {
    changeSubscriptionProducts: async ({ caller, body }) => ({
      result: await changeProducts(db, caller.partnerId, body.changes),
    }),
  };
}
