import net from 'node:net';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { sql } from '@platform/db';
import { JobRunner, type Clock } from '@platform/jobs';
import { createLogger } from '@platform/observability';
import { waitFor } from '@platform/testing';
import { claimDueMail } from '@platform/mail';
import type { DomainsDb } from '../src/db/tables';
import { backoffMs, mailJobs, type MailJobOptions } from '@platform/mail';
import { startDomainsSvc, type Harness } from './support/harness';

const logger = createLogger('mail-test', 'silent');
// Far after the real time: the service's own sender (real clock) never finds these mails due.
// Each test starts a year before the previous one, so no mail of another test is ever due in it.
let T0 = Date.parse('2100-01-01T00:00:00Z');
beforeEach(() => {
  T0 -= 365 * 86_400_000;
});
const LEASE = 60_000;

function movableClock() {
  let at = T0;
  const clock: Clock = { now: () => new Date(at) };
  return { clock, move: (ms: number) => (at += ms) };
}

interface MailRow {
  to_address: string;
  attempts: number;
  sent_at: Date | null;
  failed_at: Date | null;
  next_attempt_at: Date;
  last_error: string | null;
}

describe('mail sender job', () => {
  let h: Harness;
  let partner = 0;
  beforeAll(async () => {
    h = await startDomainsSvc();
  });
  afterAll(() => h?.close());

  /** Queues mails for a new partner, due at T0 + dueInMs; answers their recipients. */
  async function queue(count: number, dueInMs = 0) {
    const partnerId = `mail-partner-${(partner += 1)}`;
    const to = Array.from({ length: count }, (_, i) => `${partnerId}-${i}@example.com`);
    for (const address of to) {
      await sql`INSERT INTO domains.mail_queue (partner_id, kind, to_address, subject, text_body, next_attempt_at)
                VALUES (${partnerId}, 'invite', ${address}, 'Welcome', 'Hello', ${new Date(T0 + dueInMs)})`.execute(
        h.deps.db,
      );
    }
    return { partnerId, to };
  }
  const rows = async (partnerId: string) =>
    (
      await sql<MailRow>`SELECT to_address, attempts, sent_at, failed_at, next_attempt_at, last_error FROM domains.mail_queue WHERE partner_id = ${partnerId} ORDER BY to_address`.execute(
        h.deps.db,
      )
    ).rows;
  const received = (to: string[]) => h.smtp.messages.filter((m) => m.to.some((r) => to.includes(r)));

  function sender(
    clock: Clock,
    transport: Transporter = nodemailer.createTransport({ url: h.smtp.url }),
    options: Partial<MailJobOptions> = {},
  ) {
    // Due at every tick: the test's clock moves decide.
    const [send] = mailJobs<DomainsDb>(transport, logger, {
      from: 'test@example.com',
      pollMs: 1,
      leaseMs: LEASE,
      retentionMs: 7 * 86_400_000,
      ...options,
    });
    return new JobRunner<DomainsDb>({ db: h.deps.db, logger, clock }).every(send);
  }

  it('when two senders run at the same moments of a moved clock, then each mail is sent exactly once, once it is due', async () => {
    const { clock, move } = movableClock();
    const { partnerId, to } = await queue(6, 60_000);
    const a = sender(clock);
    const b = sender(clock);

    await Promise.all([a.tick(), b.tick()]);
    expect((await rows(partnerId)).filter((r) => r.sent_at)).toHaveLength(0);
    move(60_000);
    await Promise.all([a.tick(), b.tick()]);

    expect(
      received(to)
        .flatMap((m) => m.to)
        .sort(),
    ).toEqual(to);
    expect((await rows(partnerId)).map((r) => ({ sent: r.sent_at?.getTime(), attempts: r.attempts }))).toEqual(
      to.map(() => ({ sent: T0 + 60_000, attempts: 1 })),
    );
  });

  it('when a sender crashed after claiming a mail, then nobody sends it before its lease ends, and then it is sent once', async () => {
    const { clock, move } = movableClock();
    const { partnerId, to } = await queue(1);
    expect(await claimDueMail(h.deps.db, new Date(T0), LEASE)).toHaveLength(1);
    const other = sender(clock);

    move(LEASE / 2);
    await other.tick();
    expect(received(to)).toHaveLength(0);
    move(LEASE / 2);
    await other.tick();

    expect(received(to)).toHaveLength(1);
    expect(await rows(partnerId)).toEqual([expect.objectContaining({ attempts: 2, sent_at: new Date(T0 + LEASE) })]);
  });

  it('when the SMTP server refuses a mail, then it is retried after its backoff, and given up after the last attempt', async () => {
    const { clock, move } = movableClock();
    const { partnerId } = await queue(1);
    const refusing = {
      sendMail: async () => Promise.reject(new Error('550 mailbox unavailable')),
    } as unknown as Transporter;
    const runner = sender(clock, refusing, { maxAttempts: 2 });

    await runner.tick();
    expect(await rows(partnerId)).toEqual([
      expect.objectContaining({
        attempts: 1,
        next_attempt_at: new Date(T0 + 5_000),
        failed_at: null,
        last_error: '550 mailbox unavailable',
      }),
    ]);
    move(4_999);
    await runner.tick();
    expect((await rows(partnerId))[0].attempts).toBe(1);
    move(1);
    await runner.tick();
    expect(await rows(partnerId)).toEqual([
      expect.objectContaining({ attempts: 2, failed_at: new Date(T0 + 5_000), sent_at: null }),
    ]);
  });

  it('when a send-mail run passes its deadline, then it claims no further mail, and the mail in flight is still sent once', async () => {
    const { clock } = movableClock();
    const { partnerId, to } = await queue(2);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const real = nodemailer.createTransport({ url: h.smtp.url });
    let sends = 0;
    const slowFirst = {
      sendMail: async (mail: SendMailOptions) => {
        sends += 1;
        if (sends === 1) await released;
        return real.sendMail(mail);
      },
    } as unknown as Transporter;
    // The run's deadline is the lease: 100 ms here.
    const runner = sender(clock, slowFirst, { leaseMs: 100 });

    await runner.tick();
    release();
    await waitFor(() => received(to).length === 1, { what: 'the mail in flight to be sent' });
    await waitFor(async () => (await rows(partnerId)).some((r) => r.sent_at), { what: 'it to be marked sent' });

    expect(sends).toBe(1);
    expect((await rows(partnerId)).map((r) => r.attempts).sort()).toEqual([0, 1]);
  });
});

describe('mail sender: SMTP timeouts', () => {
  const SMTP_TIMEOUT = 300;
  // Not the first backoff (5 s): a mail left to its lease is told apart from one rescheduled.
  const MAIL_LEASE = 6_000;
  let h: Harness;
  const sockets = new Set<net.Socket>();
  // Accepts connections and never says a word (no greeting).
  const silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    h = await startDomainsSvc({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      SMTP_TIMEOUT_MS: String(SMTP_TIMEOUT),
      MAIL_LEASE_MS: String(MAIL_LEASE),
    });
  });
  afterAll(async () => {
    await h?.close();
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('when the SMTP server never greets, then the send fails at SMTP_TIMEOUT_MS, well inside the lease, and the mail is rescheduled', async () => {
    const queuedAt = Date.now();
    await sql`INSERT INTO domains.mail_queue (partner_id, kind, to_address, subject, text_body) VALUES ('silent-partner', 'invite', 'someone@example.com', 'Hi', 'Hello')`.execute(
      h.deps.db,
    );

    const [row] = await waitFor(
      async () => {
        const { rows } =
          await sql<MailRow>`SELECT to_address, attempts, sent_at, failed_at, next_attempt_at, last_error FROM domains.mail_queue WHERE partner_id = 'silent-partner'`.execute(
            h.deps.db,
          );
        return rows[0]?.last_error ? rows : undefined;
      },
      { what: 'the send to fail', timeoutMs: 15_000 },
    );
    const seenAt = Date.now();
    // A failure is rescheduled one backoff after the moment it failed.
    const failedAt = row.next_attempt_at.getTime() - backoffMs(1);

    expect(row).toMatchObject({ attempts: 1, sent_at: null, failed_at: null });
    expect(row.last_error).toMatch(/greeting|timeout/i);
    // Not before the SMTP timeout, and well inside the lease. A mail left to its lease (due claim + 6 s) would
    // read here as failed 1 s after the claim: later than it was seen failed.
    expect(failedAt - queuedAt).toBeGreaterThanOrEqual(SMTP_TIMEOUT);
    expect(failedAt - queuedAt).toBeLessThan(MAIL_LEASE / 2);
    expect(failedAt).toBeLessThanOrEqual(seenAt);
  });
});
