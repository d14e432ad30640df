// The package's API; the files' other exports are shared between its own modules only.
export { connectAmqp, type AmqpConnection, type AmqpConnectOptions } from './connection';
export { brokerUrls } from './broker-list';
export { outboxMigration, writeOutbox, type OutboxEvent, type OutboxTable } from './outbox';
export { outboxTraceparentMigration } from './outbox-trace';
export {
  aggregateVersionsMigration,
  applyAllIfNewer,
  applyIfNewer,
  newestIfNewer,
  projectionVersionsMigration,
} from './versions';
export {
  assertConsumerTopology,
  assertEventExchange,
  consumerQueueNames,
  deleteBrokerTopology,
  deleteEventTopology,
  unroutedExchangeName,
  type ConsumerTopology,
} from './topology';
export {
  ChannelClosedError,
  ConfirmTimeoutError,
  createPublisher,
  PublishNackedError,
  UnroutableError,
  type PublishOptions,
  type Publisher,
  type PublisherOptions,
} from './publisher';
export { startOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './relay';
export { consumerMigration } from './processed';
export { startConsumer, type Consumer } from './consumer';
export type { ConsumerOptions } from './consumer-settings';
export { DEFAULT_RETRY_DELAYS_MS } from './retry-routing';
export type { BatchEventHandlers, BatchHandlerHooks, EventHandlers, HandlerHooks } from './handlers';
export { handleEventMessage, InvalidEventMessageError, type EventMessageHandling } from './event-handling';
export { listParked, replayParked, type ParkedMessage, type ReplayParkedOptions } from './parked';
