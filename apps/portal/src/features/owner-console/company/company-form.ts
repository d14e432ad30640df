// The company form's state: the spec's Company and the DPO as flat fields, their paths in the PUT
// body, and the partial body of what changed (the owner's id and e-mail are the account's).
import type { InstanceCompany, UpdateInstanceCompanyBody } from '@platform/contracts';

export interface CompanyDraft {
  name: string;
  email: string;
  phone_number: string;
  address: string;
  postal_code: string;
  city: string;
  country: string;
  first_name: string;
  last_name: string;
  dpo_name: string;
  dpo_email: string;
}
type Key = keyof CompanyDraft;

interface FieldSpec {
  key: Key;
  label: string;
  autoComplete: string;
  type?: string;
  hint?: string;
}

const ADDRESS: Key[] = ['phone_number', 'address', 'postal_code', 'city', 'country'];
const OWNER: Key[] = ['first_name', 'last_name'];
// The DPO's fields in the body are dpo.name and dpo.email.
const DPO = { dpo_name: 'name', dpo_email: 'email' } as const;
const isDpo = (key: Key): key is keyof typeof DPO => key in DPO;

/** The field's path in the body, as the schema and the API name its errors ("address.country"). */
export const pathOf = (key: Key) =>
  ADDRESS.includes(key)
    ? `address.${key}`
    : OWNER.includes(key)
      ? `owner.${key}`
      : isDpo(key)
        ? `dpo.${DPO[key]}`
        : key;

export const GROUPS: { title: string; description: string; fields: FieldSpec[] }[] = [
  {
    title: 'Company',
    description:
      'Who is responsible for your websites: the privacy center shows it, and every consent record names it.',
    fields: [
      { key: 'name', label: 'Company name', autoComplete: 'organization' },
      {
        key: 'email',
        label: 'Contact e-mail',
        autoComplete: 'email',
        type: 'email',
        hint: 'Where visitors write about their privacy',
      },
      { key: 'phone_number', label: 'Phone', autoComplete: 'tel', type: 'tel' },
    ],
  },
  {
    title: 'Address',
    description: 'The company’s postal address.',
    fields: [
      { key: 'address', label: 'Street and number', autoComplete: 'street-address' },
      { key: 'postal_code', label: 'Postal code', autoComplete: 'postal-code' },
      { key: 'city', label: 'City', autoComplete: 'address-level2' },
      { key: 'country', label: 'Country code', autoComplete: 'country', hint: 'Two letters, like DE or FR' },
    ],
  },
  {
    title: 'Account owner',
    description: 'The person the account belongs to.',
    fields: [
      { key: 'first_name', label: 'First name', autoComplete: 'given-name' },
      { key: 'last_name', label: 'Last name', autoComplete: 'family-name' },
    ],
  },
  {
    title: 'Data protection officer',
    description:
      'Whom visitors can ask about their personal data. The privacy center shows it when its Data protection officer page is on (see Appearance).',
    fields: [
      { key: 'dpo_name', label: 'DPO name', autoComplete: 'off', hint: 'A person or a team, like “Privacy team”' },
      {
        key: 'dpo_email',
        label: 'DPO e-mail',
        autoComplete: 'off',
        type: 'email',
        hint: 'Leave both empty if you have none',
      },
    ],
  },
];

export const draftOf = (c: InstanceCompany): CompanyDraft => ({
  name: c.name,
  email: c.email,
  ...c.address,
  first_name: c.owner.first_name,
  last_name: c.owner.last_name,
  dpo_name: c.dpo?.name ?? '',
  dpo_email: c.dpo?.email ?? '',
});

/** The DPO's changed fields; a field emptied is sent as null (it clears it). */
function dpoChanges(draft: CompanyDraft, before: CompanyDraft) {
  const keys = (Object.keys(DPO) as (keyof typeof DPO)[]).filter((k) => draft[k].trim() !== before[k]);
  return Object.fromEntries(keys.map((k) => [DPO[k], draft[k].trim() === '' ? null : draft[k]]));
}

/** The changed fields as the PUT's partial body (a country cannot be emptied: left out when blank). */
export function changesOf(draft: CompanyDraft, saved: InstanceCompany): UpdateInstanceCompanyBody {
  const before = draftOf(saved);
  const changed = (keys: Key[]) =>
    Object.fromEntries(
      keys
        .filter((k) => draft[k] !== before[k] && !(k === 'country' && draft[k].trim() === ''))
        .map((k) => [k, draft[k]]),
    );
  const address = changed(ADDRESS);
  const owner = changed(OWNER);
  const dpo = dpoChanges(draft, before);
  return {
    ...changed(['name', 'email']),
    ...(Object.keys(address).length ? { address } : {}),
    ...(Object.keys(owner).length ? { owner } : {}),
    ...(Object.keys(dpo).length ? { dpo } : {}),
  };
}

const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
/** "DE" -> "Germany"; undefined for anything that is not a known two-letter code. */
export function countryName(code: string): string | undefined {
  const c = code.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(c)) return undefined;
  try {
    return regions.of(c);
  } catch {
    return undefined;
  }
}
