/**
 * One runner for every service's periodic and due work (libs/jobs).
 *
 * Hand-written rather than graphile-worker or pg-boss: both keep their own schema, which a
 * service's role (svc_<schema>, allowed only its own schema) could not use without widening its
 * rights, and our due work already lives in the service's own tables (mail_queue, outbox,
 * deliveries). What they give that we need is small: SKIP LOCKED claims with a lease, an advisory
 * lock for singletons, a schedule, a deadline, and an injectable clock.
 */
export * from './runner';
export * from './prune';
