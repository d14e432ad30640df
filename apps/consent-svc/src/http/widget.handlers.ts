import type { InternalCaller } from '@platform/auth';
import type { consentPublicRoutes } from '@platform/contracts';
import { notFound, reply, type Handlers } from '@platform/http';
import type { ConsentContext } from '../domain/context';
import { receiveDataRequest } from '../domain/data-requests.service';
import { recordReceipt, widgetProperty } from '../domain/receipts.service';

/**
 * What the widget calls on a customer's site (no API key), and the public keys of record
 * signatures. The chassis answers a foreign Origin (403) and sets the CORS headers before these run.
 */
export function widgetHandlers(ctx: ConsentContext): Handlers<(typeof consentPublicRoutes)[number], InternalCaller> {
  return {
    // caller.clientIp: the visitor's address as the gateway forwarded it (looked up for GeoIP, never stored).
    createReceipt: async ({ params, body, caller }) => {
      const property = await widgetProperty(ctx.properties, params.propertyId);
      const record = await recordReceipt(ctx, (row) => ctx.records.write(row), {
        property,
        body,
        visitorAddress: caller.clientIp,
      });
      return reply(201, { result: record });
    },
    createDataRequest: async ({ params, body, caller }) => {
      const property = await widgetProperty(ctx.properties, params.propertyId);
      // A property without the request form takes no request (as if it had none).
      if (!property.has_dsar) throw notFound('property');
      return reply(202, {
        result: await receiveDataRequest(ctx, ctx.db, { property, body, visitorAddress: caller.clientIp }),
      });
    },
    getRecordSigningKeys: () => reply(200, { keys: ctx.signer.publicKeys }, { 'Cache-Control': 'public, max-age=300' }),
  };
}
