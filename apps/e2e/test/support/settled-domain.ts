import type { Client } from 'pg';
import { waitFor } from '@platform/testing';

/**
 * Waits until domains-svc has applied every subscription.changed billing-svc wrote for the domain:
 * the last writes a create causes to the domain's row, so that a test can then watch the row for
 * writes of its own (e.g. that a widget view writes nothing).
 */
export async function subscriptionCopied(db: Client, domainId: string): Promise<void> {
  await waitFor(
    async () => {
      const { rows } = await db.query(
        `SELECT count(*)::int AS written, count(p.message_id)::int AS applied
           FROM billing.outbox o LEFT JOIN domains.processed_messages p ON p.message_id = o.message->>'id'
          WHERE o.routing_key = 'subscription.changed' AND o.message->'payload'->'params'->'subscription'->>'domain_id' = $1`,
        [domainId],
      );
      const { written, applied } = rows[0] as { written: number; applied: number };
      return written > 0 && written === applied ? true : undefined;
    },
    { timeoutMs: 15_000, what: `billing-svc's subscription copied onto domain ${domainId}` },
  );
}
