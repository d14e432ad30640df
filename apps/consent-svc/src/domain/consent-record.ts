import { randomBytes } from 'node:crypto';
import {
  categoryPurpose,
  CONSENT_CATEGORY_IDS,
  OPTIONAL_CATEGORIES,
  type DataCollectionItem,
  type DataController,
  type Language,
  type ReceiptBody,
  type ReceiptStatus,
  type UnsignedConsentRecord,
} from '@platform/contracts';
import { categoryTexts } from '@platform/contracts/widget-texts-all';
import type { PropertyRow } from '../db/properties.repository';
import { regimeOf, type VisitorPlace } from '@platform/geo';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** RCPT_ and 32 random characters (190 bits). */
export function newReceiptId(): string {
  const bytes = randomBytes(32);
  let id = 'RCPT_';
  for (const b of bytes) id += ALPHABET[b % ALPHABET.length];
  return id;
}

/** ALLOWED when every optional category is granted, DENIED when none is, PARTIAL between; the other receipt types are a yes or no. */
export function receiptStatusOf(body: Pick<ReceiptBody, 'receipt_type' | 'categories' | 'granted'>): ReceiptStatus {
  if (body.receipt_type !== 'COOKIE_CONSENT') return body.granted === true ? 'ALLOWED' : 'DENIED';
  const granted = OPTIONAL_CATEGORIES.filter((c) => body.categories[c]).length;
  if (granted === OPTIONAL_CATEGORIES.length) return 'ALLOWED';
  return granted === 0 ? 'DENIED' : 'PARTIAL';
}

/**
 * The categories as recorded: Global Privacy Control is the visitor's standing opt-out of sale and
 * sharing, so it wins over a marketing grant sent with it (the widget's privacy center can send one).
 */
export function honouredCategories(body: Pick<ReceiptBody, 'categories' | 'gpc'>): ReceiptBody['categories'] {
  const { functional, analytics, marketing } = body.categories;
  return { functional, analytics, marketing: marketing && !body.gpc };
}

/** What the property collects, in the spec's shape: one purpose per category, with the visitor's answer. */
function dataCollectionOf(
  property: PropertyRow,
  categories: ReceiptBody['categories'],
  language: Language,
): DataCollectionItem[] {
  const answer = { necessary: true, ...categories } as Record<string, boolean>;
  const texts = categoryTexts(language);
  // What the scanner found (vendors, cookies), each purpose with the visitor's answer for its
  // category; nobody consents to unclassified technologies, so those read DENIED.
  const scanned = property.scanned_collection.map((item) => ({
    ...item,
    purposes: item.purposes.map((p) => ({ ...p, status: answer[p.category] ? 'GRANTED' : 'DENIED' })),
  }));
  return [
    {
      name: property.hostname,
      description: `Cookies and similar technologies on ${property.hostname}`,
      fields: [],
      partners: [],
      processors: [],
      // The categories in the words the widget showed the visitor, in the language it showed them
      // (one catalogue, libs/contracts).
      purposes: CONSENT_CATEGORY_IDS.map((category) =>
        categoryPurpose(category, answer[category] ? 'GRANTED' : 'DENIED', texts),
      ),
    },
    ...scanned,
  ];
}

/** The company as the data controller of the property's site. */
function dataControllerOf(property: PropertyRow): DataController {
  const c = property.company;
  return {
    name: c.trade_name ?? c.name,
    logo: null,
    phone_number: c.phone_number,
    url: `https://${property.hostname}`,
    email: c.email,
    address: {
      id: property.company_id,
      country: c.country,
      state: c.state,
      address: c.address,
      address_2: c.address_2,
      postal_code: c.postal_code,
      phone_number: c.phone_number,
    },
  };
}

export interface RecordInput {
  property: PropertyRow;
  body: Omit<ReceiptBody, 'nonce'>;
  place: VisitorPlace;
  subjectData?: Record<string, unknown>;
  now: Date;
}

/** The record as the API shows it, before it is signed. */
export function buildRecord({ property, body, place, subjectData, now }: RecordInput): UnsignedConsentRecord {
  const categories = honouredCategories(body);
  // Receipts from widgets older than the catalogue were read in English.
  const language = body.language ?? 'en';
  return {
    receipt_id: newReceiptId(),
    receipt_type: body.receipt_type,
    receipt_status: receiptStatusOf({ ...body, categories }),
    country: place.country,
    region: place.region,
    jurisdiction: place.jurisdiction,
    meta: {
      widget_version: body.widget_version,
      consent_revision: body.consent_revision,
      gpc: body.gpc,
      language,
      // The notice the widget showed (the property may pin one); else the one the visitor's place is owed.
      regime: body.regime ?? regimeOf(place),
    },
    data_collection: dataCollectionOf(property, categories, language),
    data_controller: dataControllerOf(property),
    subject: body.subject,
    subject_auth: 'ANONYMOUS',
    subject_data: { categories: { necessary: true, ...categories }, ...subjectData },
    property_id: property.property_id,
    created_at: now.toISOString(),
  };
}
