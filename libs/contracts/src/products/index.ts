export * from './product.schema';
export * from './default-catalogue';
