export * from './geoip';
export * from './jurisdiction';
export * from './regime';
export * from './sample-addresses';
