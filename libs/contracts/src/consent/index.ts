export * from './categories';
export * from './consent-record.schema';
export * from './widget-input.schema';
export * from './consent.routes';
export * from './consent-stats.routes';
export * from './data-request.schema';
export * from './data-request.events';
export * from './data-request.routes';
