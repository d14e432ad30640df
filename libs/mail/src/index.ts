/**
 * E-mail for any service: a mail_queue table in the service's schema, filled in the same
 * transaction as the change that causes the mail, and sent by job-runner jobs (claims with a
 * lease, retries with backoff, pruning), with the SMTP transport and its configuration.
 */
export * from './mail-queue.repository';
export * from './mail-sender.job';
export * from './mail-config';
