import { createLogger } from '@platform/observability';
import { createTestDatabase, waitFor } from '@platform/testing';
import { createDb, listen, sql, type Listener } from '../src';

describe('listen', () => {
  let database: { url: string; drop: () => Promise<void> };
  let handle: ReturnType<typeof createDb<unknown>>;
  const log = createLogger('test', 'silent');
  const listeners: Listener[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('listen');
    handle = createDb<unknown>({ url: database.url, schema: 'public', max: 2 });
  });
  afterAll(async () => {
    await Promise.all(listeners.map((l) => l.stop()));
    await handle.db.destroy();
    await database.drop();
  });

  const subscribe = (channel: string, applicationName: string) => {
    const events: string[] = [];
    const listener = listen(
      { connectionString: database.url, application_name: applicationName },
      channel,
      {
        onNotify: (payload) => events.push(`notify:${payload}`),
        onUp: () => events.push('up'),
        onDown: () => events.push('down'),
      },
      log,
    );
    listeners.push(listener);
    return { listener, events };
  };
  const notify = (channel: string, payload: string) => sql`SELECT pg_notify(${channel}, ${payload})`.execute(handle.db);

  it('when a NOTIFY is sent on its channel after it is up, then onNotify receives its payload, and another channel is not heard', async () => {
    const { listener, events } = subscribe('keys_a', 'listen_a');
    await listener.started;
    expect(listener.listening).toBe(true);
    expect(events).toEqual(['up']);
    await notify('keys_b', 'elsewhere');
    await notify('keys_a', 'first');
    await waitFor(() => events.includes('notify:first'), { what: 'the notification' });
    expect(events).toEqual(['up', 'notify:first']);
  });

  it('when its connection is killed, then it says down, reconnects, says up again and hears what is sent after', async () => {
    const { listener, events } = subscribe('keys_c', 'listen_c');
    await listener.started;
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'listen_c'`.execute(
      handle.db,
    );
    await waitFor(() => events.filter((e) => e === 'up').length === 2, { what: 'the second up' });
    expect(events.slice(0, 3)).toEqual(['up', 'down', 'up']);
    expect(listener.listening).toBe(true);
    await notify('keys_c', 'after');
    await waitFor(() => events.includes('notify:after'), { what: 'the notification after the reconnect' });
  });

  it('when stopped, then its connection is closed and it never reconnects', async () => {
    const { listener, events } = subscribe('keys_d', 'listen_d');
    await listener.started;
    await listener.stop();
    expect(listener.listening).toBe(false);
    const connections = async () =>
      (
        await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'listen_d'`.execute(handle.db)
      ).rows[0].n;
    await waitFor(async () => (await connections()) === 0, { what: 'the connection to close' });
    await notify('keys_d', 'ignored');
    // A NOTIFY round trip on another listener proves the ignored one had time to arrive.
    const { listener: probe, events: probeEvents } = subscribe('keys_d', 'listen_d_probe');
    await probe.started;
    await notify('keys_d', 'probe');
    await waitFor(() => probeEvents.includes('notify:probe'), { what: 'the probe' });
    expect(events).toEqual(['up']);
    expect(await connections()).toBe(0);
  });

  it('when the database cannot be reached, then started still resolves (a retry is scheduled) and it is not listening', async () => {
    const events: string[] = [];
    const listener = listen(
      { connectionString: 'postgres://postgres@127.0.0.1:1/nothing', connectionTimeoutMillis: 500 },
      'keys_e',
      { onNotify: () => undefined, onUp: () => events.push('up') },
      log,
    );
    listeners.push(listener);
    await listener.started;
    expect(listener.listening).toBe(false);
    expect(events).toEqual([]);
    await listener.stop();
  });
});
