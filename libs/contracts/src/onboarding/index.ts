export * from './onboarding.schema';
export * from './onboarding.routes';
