/** The service chassis: how every service boots, migrates, serves, consumes, measures and stops. */
export * from './config';
export * from './metrics';
export * from './migrations';
export * from './service-caller';
export * from './start-service';
