import { z } from 'zod';

export const PERMISSIONS = [
  'domains:read',
  'domains:write',
  'subscriptions:write',
  'products:read',
  'merchants:read',
  'merchants:write',
  'records:read',
  'webhooks:read',
  'webhooks:write',
] as const;
export const permissionSchema = z.enum(PERMISSIONS);
export type Permission = z.infer<typeof permissionSchema>;

export const SERVICES = ['domains', 'billing', 'merchants', 'consent', 'webhooks'] as const;
export type ServiceName = (typeof SERVICES)[number];
