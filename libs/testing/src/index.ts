export * from './infra';
export * from './wait';
