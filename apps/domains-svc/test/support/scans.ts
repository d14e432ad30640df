import { waitFor } from '@platform/testing';
import { createBody, type Harness, type TestPartner } from './harness';

/** The scan's result once it completed or failed. */
export async function finished(h: Harness, p: TestPartner, domainId: string, timeoutMs = 30_000) {
  return waitFor(
    async () => {
      const r = await h.call(p, 'GET', `/portal/domains/${domainId}/scan`);
      return r.status === 200 && ['completed', 'failed'].includes(r.body.result.status) && r.body.result;
    },
    { what: 'the scan to end', timeoutMs },
  );
}

/** A new domain for host, its scan queued; its id. */
export async function queueScan(h: Harness, p: TestPartner, host: string): Promise<string> {
  const d = (await h.call(p, 'POST', '/portal/domains', createBody(host))).body.result;
  expect((await h.call(p, 'POST', `/portal/domains/${d.id}/scan`)).status).toBe(202);
  return d.id as string;
}
