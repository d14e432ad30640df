export * from './errors';
export * from './validate';
export * from './middleware';
export * from './pagination';
export * from './app';
export * from './client';
export * from './dispatcher';
export * from './handlers';
