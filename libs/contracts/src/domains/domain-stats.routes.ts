import { z } from 'zod';
import { queryInt, resultOf } from '../common';
import { defineRoute, type RouteSpec } from '../routes';
import { DOMAIN_STATUSES } from './domain.schema';

export const DOMAIN_FUNNEL_WEEKS_MAX = 52;

export const domainStatsQuerySchema = z.object({
  weeks: queryInt({ min: 1, max: DOMAIN_FUNNEL_WEEKS_MAX })
    .default(12)
    .meta({ description: `How many weeks the funnel covers, this one included: 1 to ${DOMAIN_FUNNEL_WEEKS_MAX}` }),
});

const count = z.number().int().min(0);

export const domainFunnelWeekSchema = z
  .object({
    week_start: z.iso.date().meta({ description: 'The Monday (UTC) the week starts on' }),
    created: count.meta({ description: 'Domains created that week' }),
    invited: count.meta({ description: 'Domains first invited that week' }),
    activated: count.meta({ description: "Domains activated that week (the widget's first page view)" }),
  })
  .meta({ id: 'DomainFunnelWeek' });

export const domainStatsSchema = z
  .object({
    by_status: z
      .object(
        Object.fromEntries(DOMAIN_STATUSES.map((s) => [s, count])) as Record<
          (typeof DOMAIN_STATUSES)[number],
          typeof count
        >,
      )
      .meta({ description: "The partner's domains now, by status (every status, 0 when none)" }),
    funnel: z
      .array(domainFunnelWeekSchema)
      .meta({ description: 'One entry per week, oldest first, the current week last; weeks with nothing are 0' }),
  })
  .meta({ id: 'DomainStats' });
export type DomainStats = z.infer<typeof domainStatsSchema>;

/** The portal's Dashboard: the partner's domains by status and the activation funnel per week. */
export const domainStatsRoutes = [
  defineRoute({
    service: 'domains',
    permission: 'domains:read',
    tag: 'Dashboard',
    operationId: 'getDomainStats',
    method: 'get',
    path: '/portal/stats/domains',
    summary: 'Domains by status and the activation funnel per week',
    description:
      'Weeks are ISO weeks in UTC (Monday to Sunday). A domain counts in `created` the week it was created, in `invited` ' +
      'the week of its first invitation and in `activated` the week of its first activation; deleted domains are not counted.',
    query: domainStatsQuerySchema,
    response: resultOf(domainStatsSchema),
    errors: ['VALIDATION.INVALID'],
  }),
] satisfies RouteSpec[];
