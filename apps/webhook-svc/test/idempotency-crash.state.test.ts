import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import {
  act,
  crashBetweenCommitAndAnswer,
  holdCommit,
  startServiceProcess,
  retryPastInProgress,
  type ServiceProcess,
} from '@platform/testing';

describe('a keyed webhook endpoint create survives a crash between its commit and its answer (webhook-svc as a process)', () => {
  let svc: ServiceProcess;
  let db: Client;
  beforeAll(async () => {
    svc = await startServiceProcess({
      app: 'webhook-svc',
      schema: 'webhooks',
      audience: 'webhooks',
      env: {
        WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
        WEBHOOK_ROLE: 'api',
        WEBHOOK_ALLOW_LOOPBACK: 'true',
        // A claim whose process died is taken over after this long.
        IDEMPOTENCY_LOCK_MS: '1000',
      },
    });
    db = new Client({ connectionString: svc.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await svc?.close();
  });

  const endpointsAt = async (url: string) =>
    (await db.query<{ id: string }>('SELECT id FROM webhooks.endpoints WHERE url = $1', [url])).rows;

  it('when webhook-svc is SIGKILLed after committing a create with an Idempotency-Key and before answering, then the retry replays the original 201 (with its secret) and one endpoint exists', async () => {
    const { token } = svc.partner();
    const url = `http://127.0.0.1:9/hooks/${randomUUID()}`;
    const create = () =>
      act(svc.url, 'POST', '/portal/webhooks', {
        token,
        body: { url, description: 'crash' },
        headers: { 'Idempotency-Key': `create-${url}` },
      });
    const hold = await holdCommit(svc.databaseUrl, 'webhooks.endpoints', `NEW.url = '${url}'`);
    const { first, committed } = await crashBetweenCommitAndAnswer({
      service: svc,
      hold,
      send: create,
      committed: async () => (await endpointsAt(url))[0],
    });
    expect(first.status).toBe('rejected');

    const retry = await retryPastInProgress(() => create());
    expect({ status: retry.status, error: retry.body.error?.code }).toEqual({ status: 201, error: undefined });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.result).toMatchObject({ id: committed.id, url, secret: expect.any(String) });
    expect(await endpointsAt(url)).toEqual([{ id: committed.id }]);
  });
});
