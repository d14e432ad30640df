import { useQuery } from '@tanstack/react-query';
import {
  consentStatsRoutes,
  domainStatsRoutes,
  routeOf,
  subscriptionStatsRoutes,
  webhookStatsRoutes,
} from '@platform/contracts';
import { call } from '../../api/client';
import { DAYS, WEEKS } from './stats';

const KEYS = ['stats'] as const;

/** Domains by status and the weekly funnel (domains-svc). */
export const useDomainStats = () =>
  useQuery({
    queryKey: [...KEYS, 'domains', WEEKS],
    queryFn: async () => (await call(routeOf(domainStatsRoutes, 'getDomainStats'), { query: { weeks: WEEKS } })).result,
  });

/** Subscriptions per product (billing-svc). */
export const useSubscriptionStats = () =>
  useQuery({
    queryKey: [...KEYS, 'subscriptions'],
    queryFn: async () => (await call(routeOf(subscriptionStatsRoutes, 'getSubscriptionStats'))).result,
  });

/** Webhook health (webhooks-svc). */
export const useWebhookStats = () =>
  useQuery({
    queryKey: [...KEYS, 'webhooks'],
    queryFn: async () => (await call(routeOf(webhookStatsRoutes, 'getWebhookStats'))).result,
  });

/** Consent receipts per day (consent-svc). */
export const useReceiptStats = () =>
  useQuery({
    queryKey: [...KEYS, 'receipts', DAYS],
    queryFn: async () => (await call(routeOf(consentStatsRoutes, 'getReceiptStats'), { query: { days: DAYS } })).result,
  });
