import { z } from 'zod';
import { EVENT_REGISTRY, type EventName } from './event-registry';
import type { EventPayload } from './events';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

const SAMPLE_TIME = '2026-11-22T09:30:00.000Z';
const SAMPLE_IDS: Record<string, string> = {
  id: '8a1c6f0e-52b4-4c3e-9d2a-6f1e0b7c4d21',
  domain_id: '8a1c6f0e-52b4-4c3e-9d2a-6f1e0b7c4d21',
  property_id: '2e9b7d54-0c1a-4f8e-b3d6-95a7c2e1f048',
  instance_property_id: '2e9b7d54-0c1a-4f8e-b3d6-95a7c2e1f048',
  company_id: '5d3f1a8c-7e2b-4a69-8c04-1b6e9f2d7a35',
  instance_company_id: '5d3f1a8c-7e2b-4a69-8c04-1b6e9f2d7a35',
  subscription_id: 'c7e4a2b9-3d16-4f58-a0e1-8b2d5c9f6a74',
  subscriptions: 'c7e4a2b9-3d16-4f58-a0e1-8b2d5c9f6a74',
  merchant_id: 'merchant-1042',
};

/** A realistic text for a field, by its name (the schemas say only "string"). */
function sampleText(key: string): string {
  if (SAMPLE_IDS[key]) return SAMPLE_IDS[key];
  if (key.endsWith('_at')) return SAMPLE_TIME;
  if (['domain', 'hostname', 'domain_name'].includes(key)) return 'www.example.com';
  if (key === 'website_url') return 'https://www.example.com';
  if (key === 'approval_url') return 'https://partner.example.net/approve/2e9b7d54';
  if (key === 'widget_embed_code')
    return '<script src="https://widget.example.net/widget/v1/2e9b7d54-0c1a-4e53-9a57-7f7d0c2b1e11/loader.js"></script>';
  if (key.includes('email')) return 'jane.doe@example.com';
  if (key.endsWith('first_name')) return 'Jane';
  if (key.endsWith('last_name')) return 'Doe';
  if (key === 'company_name' || key === 'name') return 'Example Ltd';
  if (key === 'company_trade_name') return 'Example';
  if (key === 'country') return 'US';
  if (key === 'state') return 'CA';
  if (key === 'city') return 'San Francisco';
  if (key === 'address') return '1 Market Street';
  if (key === 'postal_code') return '94105';
  if (key === 'vat_number') return 'US123456789';
  if (key === 'region') return 'us-east';
  if (key.endsWith('_color')) return '#1a73e8';
  if (key === 'widget_font') return 'Inter';
  if (key === 'widget_position') return 'bottom-right';
  if (key === 'border_radius') return '8px';
  if (key === 'status') return 'ACTIVE';
  if (key === 'description') return 'Privacy widget of www.example.com';
  return key;
}

function sample(schema: JsonSchema, key: string): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum.includes('ACTIVE') ? 'ACTIVE' : schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  // Nullable: show the value, not the null.
  if (alternatives) return sample(alternatives.find((a) => a.type !== 'null') ?? alternatives[0], key);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, sample(v, k)]));
    case 'array':
      return schema.items ? [sample(schema.items, key)] : [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'string':
      return sampleText(key);
    default:
      return null;
  }
}

/**
 * An example payload of an event, generated from its schema in the registry (every field,
 * optional ones included, with a realistic value chosen by the field's name), so the examples
 * partners see can never drift from what is sent.
 */
export function exampleEventPayload(name: EventName): EventPayload {
  const schema = EVENT_REGISTRY[name].schema;
  return schema.parse(sample(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema, 'payload'));
}

/**
 * The JSON Schema (draft 2020-12) of the body a webhook of this event carries, from the same
 * registry schema the bus validates against, for partners who validate what they receive.
 */
export function eventBodyJsonSchema(name: EventName): Record<string, unknown> {
  const json = z.toJSONSchema(EVENT_REGISTRY[name].schema, {
    io: 'output',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
