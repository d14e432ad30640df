export * from './hostname';
export * from './domain.schema';
export * from './domain-query.schema';
export * from './subdomain.schema';
export * from './domain-events';
export * from './domains.routes';
export * from './subscription-change.routes';
export * from './domain-internal.routes';
