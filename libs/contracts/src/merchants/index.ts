export * from './merchant.schema';
export * from './merchants.routes';
export * from './merchant-input';
export * from './merchant-events';
