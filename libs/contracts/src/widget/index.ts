export * from './widget.schema';
export * from './widget.routes';
export * from './look';
export * from './embeds';
export * from './texts';
export * from './regime';
