import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import {
  act,
  crashBetweenCommitAndAnswer,
  holdCommit,
  startServiceProcess,
  retryPastInProgress,
  type ServiceProcess,
} from '@platform/testing';

describe('a keyed merchant create survives a crash between its commit and its answer (merchants-svc as a process)', () => {
  let svc: ServiceProcess;
  let db: Client;
  beforeAll(async () => {
    svc = await startServiceProcess({
      app: 'merchants-svc',
      schema: 'merchants',
      audience: 'merchants',
      // A claim whose process died is taken over after this long.
      env: { IDEMPOTENCY_LOCK_MS: '1000' },
    });
    db = new Client({ connectionString: svc.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await svc?.close();
  });

  const merchantsNamed = async (merchantId: string) =>
    (await db.query<{ id: string }>('SELECT id FROM merchants.merchants WHERE merchant_id = $1', [merchantId])).rows;

  it('when merchants-svc is SIGKILLed after committing a create with an Idempotency-Key and before answering, then the retry replays the original 201 and one merchant exists', async () => {
    const { token } = svc.partner();
    const merchantId = `crash-${randomUUID().slice(0, 8)}`;
    const create = () =>
      act(svc.url, 'POST', '/portal/merchants', {
        token,
        body: { merchant_id: merchantId, company_name: 'Crash Ltd' },
        headers: { 'Idempotency-Key': `create-${merchantId}` },
      });
    const hold = await holdCommit(svc.databaseUrl, 'merchants.merchants', `NEW.merchant_id = '${merchantId}'`);
    const { first, committed } = await crashBetweenCommitAndAnswer({
      service: svc,
      hold,
      send: create,
      committed: async () => (await merchantsNamed(merchantId))[0],
    });
    expect(first.status).toBe('rejected');

    const retry = await retryPastInProgress(() => create());
    expect({ status: retry.status, error: retry.body.error?.code }).toEqual({ status: 201, error: undefined });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.result).toMatchObject({ id: committed.id, merchant_id: merchantId, company_name: 'Crash Ltd' });
    expect((await create()).text).toBe(retry.text);
    expect(await merchantsNamed(merchantId)).toEqual([{ id: committed.id }]);
  });
});
