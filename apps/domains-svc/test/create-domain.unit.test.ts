import { createDomainBodySchema, resolveProductCodes, type CreateDomainBody } from '@platform/contracts';
import type { InstanceSettings } from '../src/context';
import {
  createdEvents,
  createdState,
  createdView,
  newCompany,
  newDomainRows,
  planNewDomain,
  welcomeMails,
  type ChosenProduct,
} from '../src/domains/domain/new-domain';
import { TEST_CATALOGUE } from './support/catalogue';

const SETTINGS: InstanceSettings = {
  widgetBaseUrl: 'https://widget.test',
  instance: { id: 7, name: 'i', hostname: 'i.test', region: 'eu' },
  systemSegmentId: 1,
  widgetVersion: 3,
  approvalUrlTemplate: 'https://{domain_name}/',
};
const PRO = resolveProductCodes('PRO', 'PARTNER', TEST_CATALOGUE) as ChosenProduct;
const NOW = new Date('2026-01-02T03:04:05.000Z');

const body = (extra: Record<string, unknown> = {}): CreateDomainBody =>
  createDomainBodySchema.parse({
    domain: 'shop.example.com',
    company_name: 'Shop Ltd',
    account_email: 'owner@shop.example.com',
    ...extra,
  });
const plan = (extra: Record<string, unknown> = {}) => planNewDomain('partner-1', body(extra), SETTINGS, PRO, NOW);

describe('create domain: the rows, answer, events and e-mail it decides', () => {
  it('when the action is SCAN_INVITE and a merchant is named, then the domain starts NEW (invited once scanned) and names that merchant; otherwise NEW and none', () => {
    expect(plan({ action: 'SCAN_INVITE', merchant_id: 'm-1' })).toMatchObject({ status: 'NEW', merchants: ['m-1'] });
    expect(plan()).toMatchObject({ status: 'NEW', merchants: [] });
  });

  it('when the company is reused, then only the property, domain and subdomains are inserted, all with the chosen product and the same ids', () => {
    const p = plan({ subdomains: ['b', 'a'] });
    const address = {
      phone_number: null,
      country: 'DE',
      state: null,
      city: 'Berlin',
      address: 'Str. 1',
      address_2: null,
      postal_code: '10117',
    };
    const reused = {
      id: 'company-1',
      name: 'Shop Ltd',
      trade_name: null,
      id_number: null,
      owner_email: 'owner@shop.example.com',
      email: 'owner@shop.example.com',
      ...address,
    };
    const rows = newDomainRows(p, reused, undefined);
    expect(rows.company).toBeUndefined();
    expect(rows.property).toMatchObject({
      id: p.ids.property,
      company_id: 'company-1',
      name: 'shop.example.com',
      created_at: NOW,
    });
    expect(rows.domain).toMatchObject({
      id: p.ids.domain,
      property_id: p.ids.property,
      company_id: 'company-1',
      subscription_id: p.ids.subscription,
      product_id: 2,
      price_list_id: 2,
      price_id: 203,
      instance_id: 7,
      widget_version: 3,
    });
    expect(rows.subdomains.map((s) => s.hostname)).toEqual(p.body.subdomains);
    expect(createdState(p, reused)).toMatchObject({
      id: p.ids.domain,
      company_id: 'company-1',
      subdomains: [...p.body.subdomains].sort(),
      created_at: NOW.toISOString(),
    });
    // The reused company, not the body's, is the one projections learn.
    expect(createdState(p, reused).company).toEqual({
      name: 'Shop Ltd',
      trade_name: null,
      email: 'owner@shop.example.com',
      ...address,
    });
  });

  it('when the company is new, then it is inserted from the request and the answer shows it', () => {
    const p = plan({ company_trade_name: 'Shop', account_first_name: 'Ada' });
    const company = newCompany(p);
    expect(newDomainRows(p, company, company).company).toMatchObject({
      name: 'Shop Ltd',
      trade_name: 'Shop',
      owner_email: 'owner@shop.example.com',
      owner_first_name: 'Ada',
      partner_id: 'partner-1',
    });
    expect(createdView(p, company)).toMatchObject({
      id: p.ids.domain,
      company_id: company.id,
      company_name: 'Shop Ltd',
      company_trade_name: 'Shop',
      status: 'NEW',
      activated_at: null,
    });
  });

  it.each([
    [undefined, 'API'],
    ['PORTAL', 'PORTAL'],
  ] as const)(
    'when the create comes from %s, then the row, answer, state and domain.created say source %s',
    (source, expected) => {
      const p = planNewDomain('partner-1', body(), SETTINGS, PRO, NOW, source);
      const company = newCompany(p);
      const view = createdView(p, company);
      expect(newDomainRows(p, company, company).domain.source).toBe(expected);
      expect(view.source).toBe(expected);
      expect(createdState(p, company).source).toBe(expected);
      expect(createdEvents(p, view)[0].params).toMatchObject({ source: expected });
    },
  );

  it.each([
    ['CREATE_SILENT', undefined],
    ['SCAN', 'SCAN'],
    ['SCAN_INVITE', 'SCAN_INVITE'],
  ])('when the action is %s, then the create writes domain.created only and queues the scan of %s', (action, scan) => {
    const p = plan({ action });
    const company = newCompany(p);
    expect(createdEvents(p, createdView(p, company)).map((e) => e.event)).toEqual(['domain.created']);
    expect(newDomainRows(p, company, company).scan).toBe(scan);
  });

  it.each([
    [{}, []],
    [{ send_intro: true }, ['intro']],
    // The invitation of a SCAN_INVITE follows its scan (scan-completion), never the create.
    [{ action: 'SCAN_INVITE' }, []],
    [{ action: 'SCAN_INVITE', send_intro: true }, ['intro']],
  ])('when the request is %j, then the mails queued are %j', (extra, kinds) => {
    const p = plan(extra);
    expect(welcomeMails(p).map((m) => m.queueKind)).toEqual(kinds);
  });
});
