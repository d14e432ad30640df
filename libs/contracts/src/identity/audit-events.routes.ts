import { pageOf } from '../common';
import { defineRoute } from '../routes';
import { auditEventSchema, listAuditEventsQuerySchema } from './identity.schema';

/** Who did what in the partner's account (userOnly). */
export const auditEventRoutes = [
  defineRoute({
    service: 'gateway',
    permission: 'audit:read',
    userOnly: true,
    tag: 'Audit log',
    operationId: 'listAuditEvents',
    method: 'get',
    path: '/portal/audit-events',
    summary: 'List audit events, newest first',
    description: 'Filter by actor (a user or API key id) and kind.',
    query: listAuditEventsQuerySchema,
    response: pageOf(auditEventSchema),
    errors: ['VALIDATION.INVALID'],
  }),
];
