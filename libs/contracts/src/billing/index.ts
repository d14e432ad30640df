export * from './subscriptions';
