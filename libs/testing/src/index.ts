export * from './infra';
export * from './wait';
export * from './broker';
export * from './smtp';
export * from './health';
export * from './service';
export * from './api';
export * from './raw-http';
