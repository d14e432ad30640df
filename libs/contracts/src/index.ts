export * from './errors';
export * from './common';
export * from './events';
export * from './permissions';
export * from './routes';
export * from './openapi';
export * from './catalogue';
