export * from './product.schema';
export * from './product-codes';
export * from './products.routes';
