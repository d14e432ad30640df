/**
 * One runner for every service's periodic and due work (libs/jobs).
 *
 * ```ts
 * const runner = new JobRunner({ db, logger, clock? })       // clock: tests move time instead of sleeping
 *   .every({ name: 'send-mail', intervalMs: 1_000, deadlineMs: 60_000, run: ({ db, now, clock, signal }) => ... })
 *   .every({ name: 'prune', intervalMs: 600_000, jitterMs: 60_000, singleton: true, run: ... });
 * runner.start();   // the chassis (startService) does this, and stop() on shutdown
 * await runner.tick();   // tests: run what is due by the clock now, and wait for it
 * const rows = await claimWithLease(db, { table, dueColumn, now, leaseMs, limit })   // SKIP LOCKED + lease
 * new LeaseWorker({ lanes: { due: { concurrency, claim } }, run, leaseMs, pollMs, listen })   // claims and runs due rows
 * ```
 *
 * - A job runs every intervalMs (plus optional jitter), never twice at once in one runner; a
 *   slow job does not delay the others.
 * - `singleton`: a PostgreSQL advisory lock (scoped to the service's schema) held by a
 *   transaction on its own connection for the whole run, so two processes never run it at once.
 * - `deadlineMs`: the runner abandons a run after it (logged, reported as `deadline`, signal
 *   aborted) and the next run still comes; a singleton's lock is kept until the abandoned run
 *   really ends. stop() aborts the signals and waits for the runs in flight.
 * - Due rows are claimed with claimWithLease (FOR UPDATE SKIP LOCKED; the lease pushes out the
 *   due time, or fills a lease column of its own), so a crashed worker's rows are free again when
 *   their lease ends.
 * - A LeaseWorker runs due rows (webhook deliveries, scans): LISTEN + poll + claimWithLease into
 *   each lane's free slots; a run that could outlast its lease is left to the next claim.
 * - deleteInBatches / pruneChassisTables keep tables from growing, one bounded statement at a time.
 *
 * Hand-written rather than graphile-worker or pg-boss. graphile-worker keeps its queue in its own
 * schema and migrates it when a worker starts, which needs DDL rights the service role
 * (svc_<schema>, only its own schema, no DDL in production) does not have. pg-boss can live in the
 * service's schema (its construction plans can run as a migration), but both model work as rows
 * of their own job table: our due work already lives in the service's own tables (mail_queue, the
 * outbox, webhook deliveries), and we would copy each row into a job row and keep the two
 * in step. Both schedule with minute-level cron (pg-boss checks schedules every 30 s), while the
 * outbox sweep and the mail sender run every second, and both take time from the database, not an
 * injectable clock. What we need of them is small: SKIP LOCKED claims with a lease, an advisory
 * lock for singletons, an interval schedule, a deadline, a clock.
 */
export * from './runner';
export * from './clock';
export * from './prune';
export * from './claim';
export * from './lease-worker';
