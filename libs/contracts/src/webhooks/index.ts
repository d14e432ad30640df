export * from './webhook.schema';
export * from './webhooks.routes';
export * from './webhook-stats.routes';
