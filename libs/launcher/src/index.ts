export * from './process';
export * from './ports';
export * from './platform';
export * from './mail';
export * from './webhook-receiver';
