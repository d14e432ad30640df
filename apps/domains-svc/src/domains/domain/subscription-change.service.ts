import {
  errorObject,
  isUuid,
  resolveProductCodes,
  type BulkProductChangeBody,
  type ErrorObject,
  type ProductChangeBody,
  type SubscriptionProductChangeResult,
} from '@platform/contracts';
import { inTransaction } from '@platform/db';
import { AppError, notFound, validationError } from '@platform/http';
import { findSubscriptionsOfDomains } from '../db/subscription-copies.repository';
import { applySubscriptionUpdates } from './subscription-copies.service';
import type { Caller, DomainsContext } from '../../context';

type Entry = ProductChangeBody & { id: string };

/**
 * Product changes of the partner's domains: codes are resolved against billing-svc's catalogue,
 * billing-svc makes the change (one call for the batch; 503 while it is unavailable), and the
 * answer is applied to the domains' copy at once (by version), so the next read shows it.
 */
async function changeProducts(ctx: DomainsContext, caller: Caller, entries: Entry[]) {
  const products = await ctx.catalogue.products();
  const failed: { domain_id: string; error: ErrorObject }[] = [];
  const owned = new Map(
    (
      await findSubscriptionsOfDomains(
        ctx.db,
        caller.partnerId,
        entries.filter((e) => isUuid(e.id)).map((e) => e.id.toLowerCase()),
      )
    ).map((d) => [d.id, d]),
  );
  const requests = [];
  for (const entry of entries) {
    const domain = isUuid(entry.id) ? owned.get(entry.id.toLowerCase()) : undefined;
    if (!domain) {
      failed.push({ domain_id: entry.id, error: errorObject('RESOURCE.NOT_FOUND', 'The domain does not exist.') });
      continue;
    }
    const resolved = resolveProductCodes(
      entry.product,
      entry.price_list ?? priceListCodeOf(products, domain.price_list_id),
      products,
    );
    if (!resolved.ok) {
      failed.push({
        domain_id: entry.id,
        error: errorObject('VALIDATION.INVALID', 'The request data is invalid.', {
          issues: [{ path: resolved.field, message: resolved.message }],
        }),
      });
      continue;
    }
    requests.push({
      entry,
      change: {
        subscription_id: domain.subscription_id,
        domain_id: domain.id,
        product_id: resolved.product.id,
        price_list_id: resolved.priceList.id,
        price_id: resolved.price.id,
        start_date: domain.created_at.toISOString(),
      },
    });
  }
  const results: SubscriptionProductChangeResult[] =
    requests.length > 0
      ? await ctx.billing.changeProducts(
          caller,
          requests.map((r) => r.change),
        )
      : [];
  await inTransaction(ctx.db, (trx) => applySubscriptionUpdates(trx, results));
  const bySubscription = new Map(results.map((r) => [r.subscription_id, r]));
  const changed = requests.map((r) => ({
    domain_id: r.entry.id,
    changed: bySubscription.get(r.change.subscription_id)?.changed ?? false,
  }));
  return { changed, failed };
}

/** A domain keeps its price list when only the product is named (and that list sells it); else the catalogue's default. */
function priceListCodeOf(
  products: Awaited<ReturnType<DomainsContext['catalogue']['products']>>,
  priceListId: number | null,
): string | undefined {
  for (const p of products)
    for (const price of p.prices) if (price.price_list.id === priceListId) return price.price_list.code;
  return undefined;
}

export async function changeDomainProduct(
  ctx: DomainsContext,
  caller: Caller,
  domainId: string,
  body: ProductChangeBody,
) {
  const { changed, failed } = await changeProducts(ctx, caller, [{ ...body, id: domainId }]);
  if (failed.length > 0) {
    const { error } = failed[0];
    if (error.code === 'RESOURCE.NOT_FOUND') throw notFound('domain');
    const issues = (error.data?.issues ?? []) as { path: string; message: string }[];
    throw validationError(issues.map((i) => ({ path: `body.${i.path}`, message: i.message })));
  }
  if (!changed[0]) throw new AppError('SERVER.INTERNAL');
  return { changed: changed[0].changed };
}

export const changeDomainProducts = (ctx: DomainsContext, caller: Caller, body: BulkProductChangeBody) =>
  changeProducts(ctx, caller, body.domains);
