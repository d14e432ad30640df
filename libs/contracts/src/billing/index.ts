export * from './subscription.schema';
export * from './subscriptions.routes';
export * from './subscription-stats.routes';
