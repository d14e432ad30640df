export * from './process';
export * from './platform';
