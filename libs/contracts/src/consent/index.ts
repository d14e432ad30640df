export * from './categories';
export * from './consent-record.schema';
export * from './widget-input.schema';
export * from './consent.routes';
export * from './consent-stats.routes';
export * from './consent-figures.routes';
