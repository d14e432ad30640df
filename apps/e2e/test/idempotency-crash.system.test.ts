import type { Client } from 'pg';
import { waitFor } from '@platform/testing';
import { startSystem, type OwnSystem, type Partner } from './support/system';

/** An advisory lock id the test holds to keep domains-svc's COMMIT waiting. */
const HOLD = 716_016;

describe('a keyed write survives a crash between its commit and its answer', () => {
  let sys: OwnSystem;
  let partner: Partner;
  let db: Client;

  beforeAll(async () => {
    sys = await startSystem();
    partner = await sys.partner();
    db = await sys.db();
  });
  afterAll(async () => {
    sys?.platform.processes.get('domains-svc')?.child.kill('SIGCONT');
    await sys?.close();
  });

  /**
   * The kill must land after PostgreSQL committed and before domains-svc answered. A deferred
   * constraint trigger (the test's own, on this test database) makes the COMMIT of this one create
   * wait for an advisory lock the test holds; domains-svc is frozen while its COMMIT waits, the
   * lock is released so PostgreSQL finishes the commit on its own, and the frozen process is killed.
   */
  async function holdCommitOf(hostname: string) {
    await db.query(`
      CREATE FUNCTION domains.e2e_hold_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.message->'payload'->'params'->>'domain' = '${hostname}' THEN PERFORM pg_advisory_xact_lock_shared(${HOLD}); END IF;
        RETURN NULL;
      END $$`);
    await db.query(
      `CREATE CONSTRAINT TRIGGER e2e_hold_commit AFTER INSERT ON domains.outbox DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION domains.e2e_hold_commit()`,
    );
    await db.query('SELECT pg_advisory_lock($1)', [HOLD]);
  }
  async function dropHold() {
    await db.query('SELECT pg_advisory_unlock_all()');
    await db.query('DROP TRIGGER IF EXISTS e2e_hold_commit ON domains.outbox');
    await db.query('DROP FUNCTION IF EXISTS domains.e2e_hold_commit()');
  }

  it('when domains-svc is SIGKILLed after committing a create with an Idempotency-Key and before answering, then the retry with that key answers the original 200 with the same domain, and one domain exists', async () => {
    const hostname = `keyed-crash-${Date.now()}.example.com`;
    const body = {
      domain: hostname,
      company_name: 'Keyed Crash Co',
      account_email: `owner@${hostname}`,
      country: 'DE',
      has_docs: false,
    };
    const headers = { 'Idempotency-Key': `create-${hostname}` };
    const domains = sys.platform.processes.get('domains-svc')!;
    await holdCommitOf(hostname);
    try {
      const first = sys.call(partner, 'POST', '/portal/domains', body, headers);
      await waitFor(
        async () =>
          (await db.query(`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted`, [HOLD]))
            .rows[0],
        { timeoutMs: 10_000, what: "the create's COMMIT waiting" },
      );
      domains.child.kill('SIGSTOP');
      await db.query('SELECT pg_advisory_unlock($1)', [HOLD]);
      const committed = await waitFor(
        async () => (await db.query('SELECT id FROM domains.domains WHERE hostname = $1', [hostname])).rows[0],
        {
          timeoutMs: 10_000,
          what: 'the create committed',
        },
      );
      await domains.stop('SIGKILL');
      const lost = await first;
      expect(lost.status).toBeGreaterThanOrEqual(500);

      await dropHold();
      await sys.platform.start('domains-svc');
      const retry = await waitFor(
        async () => {
          const res = await sys.call(partner, 'POST', '/portal/domains', body, headers);
          return res.status === 409 && res.body.error.code === 'IDEMPOTENCY.IN_PROGRESS' ? undefined : res;
        },
        { timeoutMs: 15_000, what: 'an answer to the retry' },
      );
      expect({ status: retry.status, error: retry.body.error?.code }).toEqual({ status: 200, error: undefined });
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.body.result).toEqual(expect.objectContaining({ id: committed.id, hostname, status: 'NEW' }));
      const again = await sys.call(partner, 'POST', '/portal/domains', body, headers);
      expect(again.text).toBe(retry.text);
      const rows = await db.query('SELECT id FROM domains.domains WHERE hostname = $1', [hostname]);
      expect(rows.rows).toEqual([{ id: committed.id }]);
    } finally {
      domains.child.kill('SIGCONT');
      await dropHold();
    }
  });

  it('when a keyed domain create naming a merchant fails at its COMMIT, then merchants-svc was told nothing (no merchant, no link), and the retry that commits shows the same domain in both services', async () => {
    const hostname = `keyed-refused-${Date.now()}.example.com`;
    const merchantId = `m-${hostname.slice(13, 26)}`;
    const body = {
      domain: hostname,
      company_name: 'Refused Co',
      account_email: `owner@${hostname}`,
      merchant_id: merchantId,
    };
    const headers = { 'Idempotency-Key': `refused-${hostname}` };
    await db.query(`
      CREATE FUNCTION domains.e2e_refuse_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.message->'payload'->'params'->>'domain' = '${hostname}' THEN RAISE EXCEPTION 'refused at commit'; END IF;
        RETURN NULL;
      END $$`);
    await db.query(
      `CREATE CONSTRAINT TRIGGER e2e_refuse_commit AFTER INSERT ON domains.outbox DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION domains.e2e_refuse_commit()`,
    );
    try {
      const refused = await sys.call(partner, 'POST', '/portal/domains', body, headers);
      expect(refused.status).toBeGreaterThanOrEqual(500);
    } finally {
      await db.query('DROP TRIGGER IF EXISTS e2e_refuse_commit ON domains.outbox');
      await db.query('DROP FUNCTION IF EXISTS domains.e2e_refuse_commit()');
    }
    const merchantsNamed = async () =>
      (await sys.call(partner, 'GET', `/portal/merchants?merchant_id=${merchantId}`)).body.result;
    expect((await db.query('SELECT id FROM domains.domains WHERE hostname = $1', [hostname])).rows).toEqual([]);
    expect(await merchantsNamed()).toEqual([]);

    // A 5xx is not kept: the retry runs the create again, and this time it commits.
    const created = await sys.call(partner, 'POST', '/portal/domains', body, headers);
    expect(created.status).toBe(200);
    const [merchant] = await merchantsNamed();
    expect(merchant.domain).toMatchObject({ id: created.body.result.id, hostname, status: 'NEW' });
  });
});
