export * from './webhook.schema';
export * from './webhooks.routes';
