export * from './product.schema';
export * from './default-catalogue';
export * from './products.routes';
