import type { InternalCaller } from '@platform/auth';
import type { consentRecordRoutes } from '@platform/contracts';
import type { Kysely } from '@platform/db';
import type { Handlers } from '@platform/http';
import type { ConsentDb } from '../db/tables';
import { getConsentRecord, listConsentRecords } from '../domain/records.service';

/** The partner's consent records, by operationId. */
export function recordHandlers(db: Kysely<ConsentDb>): Handlers<(typeof consentRecordRoutes)[number], InternalCaller> {
  return {
    listRecords: async ({ caller, query }) => {
      const page = await listConsentRecords(db, caller.partnerId, query);
      return { meta: page.meta, result: page.items };
    },
    getRecord: async ({ caller, params, query }) => ({
      result: await getConsentRecord(db, caller.partnerId, params.id, query),
    }),
  };
}
