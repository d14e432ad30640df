import { resultOf } from '../common';
import { BODY_ERRORS, defineRoute } from '../routes';
import { partnerSettingsSchema, updateSettingsBodySchema } from './identity.schema';

const settings = { service: 'gateway', userOnly: true, tag: 'Settings' } as const;

/** The partner's own settings (userOnly). */
export const settingsRoutes = [
  defineRoute({
    ...settings,
    permission: 'settings:read',
    operationId: 'getSettings',
    method: 'get',
    path: '/portal/settings',
    summary: "The partner's settings",
    response: resultOf(partnerSettingsSchema),
    errors: [],
  }),
  defineRoute({
    ...settings,
    permission: 'settings:write',
    operationId: 'updateSettings',
    method: 'patch',
    path: '/portal/settings',
    summary: "Change the partner's name, defaults, required onboarding fields, 2FA policy or onboarding widgets",
    description: 'Product and price list codes come from GET /portal/products; null clears a default.',
    body: updateSettingsBodySchema,
    response: resultOf(partnerSettingsSchema),
    errors: BODY_ERRORS,
  }),
];
