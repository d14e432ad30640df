export * from './process';
export * from './ports';
export * from './platform';
export * from './mail';
