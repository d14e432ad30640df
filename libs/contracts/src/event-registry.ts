import type { z } from 'zod';
import {
  domainChangedEventSchema,
  domainCreatedEventSchema,
  domainDeactivatedEventSchema,
  domainDeletedEventSchema,
  propertyActivatedEventSchema,
  propertyUpdatedEventSchema,
  reminderDay14EventSchema,
  reminderDay2EventSchema,
  reminderDay30EventSchema,
  reminderDay7EventSchema,
} from './domains/domain-events';
import type { EventDefinition, EventMessageOf } from './events';
import { subscriptionChangedEventSchema } from './billing/subscription.schema';
import { merchantChangedEventSchema } from './merchants/merchant-events';
import {
  dataRequestClosedEventSchema,
  dataRequestOverdueEventSchema,
  dataRequestVerifiedEventSchema,
} from './consent/data-request.events';

/**
 * Every event on the bus, public and internal, by name (= routing key): the one place a
 * consumer, the webhook service and the docs learn what an event is and what it carries.
 */
export const EVENT_REGISTRY = {
  'domain.created': {
    visibility: 'public',
    description: 'A domain was created (with its company, property and subscription).',
    schema: domainCreatedEventSchema,
  },
  'domain.deactivated': {
    visibility: 'public',
    description: 'An ACTIVE domain was deactivated.',
    schema: domainDeactivatedEventSchema,
  },
  'domain.deleted': {
    visibility: 'public',
    description: 'A domain was deleted, with its subdomains, property and subscriptions.',
    schema: domainDeletedEventSchema,
  },
  'property.updated': {
    visibility: 'public',
    description: "Widget settings of a domain's property changed; params hold the new values.",
    schema: propertyUpdatedEventSchema,
  },
  'property.activated': {
    visibility: 'public',
    description: 'The widget script loaded on the property for the first time, and the property was activated.',
    schema: propertyActivatedEventSchema,
  },
  'property.activation.reminder.day2': {
    visibility: 'public',
    description: "The property's website has been inactive for 2 days.",
    schema: reminderDay2EventSchema,
  },
  'property.activation.reminder.day7': {
    visibility: 'public',
    description: "The property's website has been inactive for 7 days.",
    schema: reminderDay7EventSchema,
  },
  'property.activation.reminder.day14': {
    visibility: 'public',
    description: "The property's website has been inactive for 14 days.",
    schema: reminderDay14EventSchema,
  },
  'property.activation.reminder.day30': {
    visibility: 'public',
    description: "The property's website has been inactive for 30 days.",
    schema: reminderDay30EventSchema,
  },
  'data_request.verified': {
    visibility: 'public',
    description:
      "A data subject request was confirmed by the requester's e-mailed link: it is VERIFIED and its due date runs.",
    schema: dataRequestVerifiedEventSchema,
  },
  'data_request.overdue': {
    visibility: 'public',
    description: 'A data subject request is still open (VERIFIED or IN_PROGRESS) past its due date.',
    schema: dataRequestOverdueEventSchema,
  },
  'data_request.closed': {
    visibility: 'public',
    description: 'A data subject request was closed (COMPLETED or REJECTED); the requester was e-mailed the reply.',
    schema: dataRequestClosedEventSchema,
  },
  'subscription.changed': {
    visibility: 'internal',
    description: "A subscription's whole state after it was opened, changed or ended (billing-svc), for projections.",
    schema: subscriptionChangedEventSchema,
  },
  'merchant.changed': {
    visibility: 'internal',
    description:
      "A merchant's id, merchant_id and domain links after a rename, a delete or a link change (merchants-svc), for domains-svc's links.",
    schema: merchantChangedEventSchema,
  },
  'domain.changed': {
    visibility: 'internal',
    description:
      'The whole state of a domain after any change to it, for projections (a widget-setting update leaves it as it was and sends none).',
    schema: domainChangedEventSchema,
  },
} as const satisfies Record<string, EventDefinition>;

export type EventName = keyof typeof EVENT_REGISTRY;
export const EVENT_NAMES = Object.keys(EVENT_REGISTRY) as EventName[];
export const PUBLIC_EVENT_NAMES = EVENT_NAMES.filter((name) => EVENT_REGISTRY[name].visibility === 'public');
export type PublicEventName = {
  [N in EventName]: (typeof EVENT_REGISTRY)[N]['visibility'] extends 'public' ? N : never;
}[EventName];
export const isPublicEventName = (name: string): name is PublicEventName =>
  isEventName(name) && EVENT_REGISTRY[name].visibility === 'public';

/** The typed payload of a registered event. */
export type PayloadOf<N extends EventName> = z.output<(typeof EVENT_REGISTRY)[N]['schema']>;
/** A bus message carrying a registered event, its payload typed. */
export type MessageOf<N extends EventName> = EventMessageOf<PayloadOf<N>>;

export const isEventName = (name: string): name is EventName => Object.hasOwn(EVENT_REGISTRY, name);
