import { randomBytes, randomUUID } from 'node:crypto';
import { webhookStatsSchema } from '@platform/contracts';
import { act, startTestService } from '@platform/testing';
import { webhookService } from '../src/service';

const HOUR_MS = 3_600_000;

describe('GET /portal/stats/webhooks (the Dashboard)', () => {
  const start = () =>
    startTestService(webhookService, { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), WEBHOOK_ROLE: 'api' });
  let t: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    t = await start();
  });
  afterAll(() => t?.close());

  const ago = (hours: number) => new Date(Date.now() - hours * HOUR_MS);
  const db = () => t.service.runtime.db;
  const endpoint = async (partnerId: string, health: { enabled?: boolean; failingSince?: Date } = {}) => {
    const id = randomUUID();
    await db()
      .insertInto('endpoints')
      .values({
        id,
        partner_id: partnerId,
        url: `https://hooks.example.com/${id}`,
        description: '',
        events: null,
        enabled: health.enabled ?? true,
        disabled_reason: health.enabled === false ? 'failing' : null,
        failing_since: health.failingSince ?? null,
        secret: 'v1.x.y.z',
      })
      .execute();
    return id;
  };
  /** One delivery of a new message to the endpoint, created at `createdAt`, with attempts answered by these status codes (null: no answer). */
  const delivery = async (
    partnerId: string,
    endpointId: string,
    status: 'pending' | 'succeeded' | 'failed',
    createdAt: Date,
    attempts: { at: Date; code: number | null }[] = [],
  ) => {
    const messageId = randomUUID();
    const id = randomUUID();
    await db()
      .insertInto('messages')
      .values({ id: messageId, partner_id: partnerId, event: 'domain.created', body: '{}', created_at: createdAt })
      .execute();
    await db()
      .insertInto('deliveries')
      .values({
        id,
        message_id: messageId,
        endpoint_id: endpointId,
        partner_id: partnerId,
        event: 'domain.created',
        status,
        attempt_count: attempts.length,
        next_attempt_at: status === 'pending' ? new Date() : null,
        created_at: createdAt,
        updated_at: createdAt,
      })
      .execute();
    for (const a of attempts) {
      await db()
        .insertInto('attempts')
        .values({
          delivery_id: id,
          endpoint_id: endpointId,
          attempted_at: a.at,
          duration_ms: 10,
          status_code: a.code,
          error: a.code === null ? 'timeout' : null,
          error_message: null,
          response_body: null,
          response_truncated: false,
        })
        .execute();
    }
  };
  const stats = (token: string) => act(t.url, 'GET', '/portal/stats/webhooks', { token });

  it('when a partner has healthy, failing and disabled endpoints, then it sees their health, its pending deliveries and its failures of the last 24 hours only', async () => {
    const p = t.partner({ permissions: ['webhooks:read'] });
    const healthy = await endpoint(p.id);
    const failing = await endpoint(p.id, { failingSince: ago(30) });
    const gone = await endpoint(p.id, { enabled: false, failingSince: ago(130) });
    await endpoint(p.id, { enabled: false });
    await delivery(p.id, healthy, 'succeeded', ago(2), [{ at: ago(2), code: 200 }]);
    await delivery(p.id, healthy, 'pending', ago(3), [{ at: ago(3), code: 503 }]);
    await delivery(p.id, failing, 'pending', ago(30), [
      { at: ago(30), code: 500 },
      { at: ago(20), code: null },
      { at: ago(1), code: 429 },
    ]);
    await delivery(p.id, gone, 'failed', ago(130), [{ at: ago(100), code: 410 }]);
    // Another partner: a pending delivery older than any, failures in the last hour, a failing endpoint.
    const other = t.partner();
    const theirs = await endpoint(other.id, { failingSince: ago(1) });
    await delivery(other.id, theirs, 'pending', ago(200), [{ at: ago(0.5), code: 500 }]);

    const res = await stats(p.token);
    expect(res.status).toBe(200);
    const result = webhookStatsSchema.parse(res.body.result);
    expect(result).toEqual({
      endpoints: {
        total: 4,
        disabled: 2,
        failing: [
          {
            id: gone,
            url: `https://hooks.example.com/${gone}`,
            enabled: false,
            failing_since: expect.any(String),
            last_failure_at: expect.any(String),
            failed_last_24h: 0,
          },
          {
            id: failing,
            url: `https://hooks.example.com/${failing}`,
            enabled: true,
            failing_since: expect.any(String),
            last_failure_at: expect.any(String),
            failed_last_24h: 2,
          },
        ],
      },
      pending: 2,
      oldest_pending_delivery_at: expect.any(String),
      failed_last_24h: 3,
    });
    const near = (iso: string | null, at: Date) => Math.abs(new Date(iso!).getTime() - at.getTime()) < 60_000;
    expect(near(result.oldest_pending_delivery_at, ago(30))).toBe(true);
    expect(near(result.endpoints.failing[1].last_failure_at, ago(1))).toBe(true);
    expect(near(result.endpoints.failing[1].failing_since, ago(30))).toBe(true);
    expect(near(result.endpoints.failing[0].last_failure_at, ago(100))).toBe(true);
  });

  it('when a partner has no endpoint, then zeros, no failing endpoint and no oldest pending delivery', async () => {
    const res = await stats(t.partner().token);
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual({
      endpoints: { total: 0, disabled: 0, failing: [] },
      pending: 0,
      oldest_pending_delivery_at: null,
      failed_last_24h: 0,
    });
  });

  it('when the key lacks webhooks:read, then 403', async () => {
    const res = await stats(t.partner({ permissions: ['domains:read'] }).token);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('AUTH.FORBIDDEN');
  });
});
