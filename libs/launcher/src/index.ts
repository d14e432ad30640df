export * from './process';
export * from './platform';
export * from './mail';
