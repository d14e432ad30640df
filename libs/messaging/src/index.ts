export * from './outbox';
export * from './connection';
export * from './topology';
export * from './publisher';
export * from './relay';
export * from './processed';
export * from './consumer';
export * from './parked';
