import type { RouteSpec } from '../routes';

export const domainRoutes: RouteSpec[] = [];
