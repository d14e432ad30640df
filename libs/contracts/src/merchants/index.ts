export * from './merchant.schema';
export * from './merchants.routes';
