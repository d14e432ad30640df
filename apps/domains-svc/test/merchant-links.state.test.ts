import { randomUUID } from 'node:crypto';
import { generateInternalKeyPair, InternalTokenMinter } from '@platform/auth';
import { merchantChangedEvent, PERMISSIONS, type EventMessage, type MerchantState } from '@platform/contracts';
import { sql } from '@platform/db';
import { act, envelope } from '@platform/testing';
import { createBody, startDomainsSvc, uniqueHost, type Harness, type TestPartner } from './support/harness';

describe("domains-svc's merchant links follow merchant.changed (a rename carries them, a delete clears them)", () => {
  const services = generateInternalKeyPair();
  const minter = new InternalTokenMinter(services.privateKey, 60, 'services');
  let h: Harness;
  beforeAll(async () => {
    h = await startDomainsSvc({ SERVICE_JWT_PUBLIC_KEY: services.publicKey });
  });
  afterAll(() => h?.close());

  /** merchants-svc handing over a committed merchant.changed. */
  const push = (partnerId: string, message: EventMessage) =>
    act(h.base, 'POST', '/internal/domains/events', {
      token: minter.mint(
        { partnerId, keyId: `svc-${partnerId}`, permissions: [...PERMISSIONS], requiredFields: [] },
        'domains',
      ),
      body: message,
    });
  const changed = (partnerId: string, merchant: MerchantState, version: number): EventMessage => ({
    id: randomUUID(),
    partner_id: partnerId,
    occurred_at: new Date().toISOString(),
    source: 'merchants-svc',
    aggregate_id: merchant.id,
    version,
    payload: merchantChangedEvent(merchant),
  });
  const domainWith = async (p: TestPartner, merchantId: string) =>
    (await h.call(p, 'POST', '/portal/domains', createBody(uniqueHost(), { merchant_id: merchantId }))).body.result
      .id as string;
  const shown = async (p: TestPartner, domainId: string) =>
    (await h.call(p, 'GET', `/portal/domains/${domainId}`)).body.result.merchants;
  const filtered = async (p: TestPartner, merchantId: string) =>
    (await h.call(p, 'GET', `/portal/domains?merchant_id=${merchantId}`)).body.result.map((d: { id: string }) => d.id);
  const lastState = async (p: TestPartner) =>
    (await h.outbox(p.id, 'domain.changed')).at(-1)!.message.payload.params as {
      change: string;
      domain: { merchants: string[]; merchant_links: unknown };
    };

  it('when the merchant is resolved, then renamed, then an older state arrives, then deleted, then reads and domain.changed follow each newer state only', async () => {
    const p = h.partner();
    const d = await domainWith(p, 'm-a');
    const merchantRef = randomUUID();
    const links = [{ domain_id: d, requested_as: 'm-a' }];
    expect(
      (await push(p.id, changed(p.id, { id: merchantRef, merchant_id: 'm-a', deleted: false, links }, 1))).body,
    ).toEqual({ result: { applied: true } });
    const ref = await sql<{
      merchant_ref: string;
    }>`SELECT merchant_ref FROM domains.domain_merchants WHERE domain_id = ${d}`.execute(h.deps.db);
    expect(ref.rows).toEqual([{ merchant_ref: merchantRef }]);
    // Resolving alone changes nothing a projection shows: no domain.changed for it.
    expect((await h.outbox(p.id, 'domain.changed')).length).toBe(1);

    await push(p.id, changed(p.id, { id: merchantRef, merchant_id: 'm-b', deleted: false, links }, 3));
    expect(await shown(p, d)).toEqual(['m-b']);
    expect(await filtered(p, 'm-b')).toEqual([d]);
    expect(await filtered(p, 'm-a')).toEqual([]);
    expect(await lastState(p)).toMatchObject({
      change: 'merchants',
      domain: { merchants: ['m-b'], merchant_links: [{ merchant_id: 'm-b', id: merchantRef }] },
    });

    await push(p.id, changed(p.id, { id: merchantRef, merchant_id: 'm-stale', deleted: false, links }, 2));
    expect(await shown(p, d)).toEqual(['m-b']);

    await push(p.id, changed(p.id, { id: merchantRef, merchant_id: 'm-b', deleted: true, links }, 4));
    expect(await shown(p, d)).toEqual([]);
    expect(await filtered(p, 'm-b')).toEqual([]);
    expect((await lastState(p)).domain.merchants).toEqual([]);
  });

  it('when a merchant is deleted before domains-svc resolved its link, then the link named by its merchant_id goes all the same; other domains keep theirs', async () => {
    const p = h.partner();
    const [gone, kept] = [await domainWith(p, 'm-c'), await domainWith(p, 'm-c')];
    await push(
      p.id,
      changed(
        p.id,
        { id: randomUUID(), merchant_id: 'm-c', deleted: true, links: [{ domain_id: gone, requested_as: 'm-c' }] },
        2,
      ),
    );
    expect(await shown(p, gone)).toEqual([]);
    expect(await shown(p, kept)).toEqual(['m-c']);
  });

  it("when the same message comes twice, or another partner's, then the copy is not applied and the other partner's is a 404", async () => {
    const p = h.partner();
    const d = await domainWith(p, 'm-d');
    const message = changed(
      p.id,
      { id: randomUUID(), merchant_id: 'm-e', deleted: false, links: [{ domain_id: d, requested_as: 'm-d' }] },
      1,
    );
    expect((await push(p.id, message)).body).toEqual({ result: { applied: true } });
    expect((await push(p.id, message)).body).toEqual({ result: { applied: false } });
    expect(await shown(p, d)).toEqual(['m-e']);
    const other = h.partner();
    expect((await push(other.id, message)).body).toEqual(envelope('RESOURCE.NOT_FOUND', 404));
  });
});
