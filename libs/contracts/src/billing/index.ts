export * from './subscription.schema';
export * from './subscriptions.routes';
