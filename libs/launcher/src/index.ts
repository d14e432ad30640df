export * from './process';
export * from './ports';
export * from './processes';
export * from './platform.types';
export * from './platform';
export * from './mail';
export * from './webhook-receiver';
