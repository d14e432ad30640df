import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { instanceCompanySchema, instancePropertySchema } from '@platform/contracts';
import { startWebhookReceiver, type WebhookReceiver } from '@platform/launcher';
import { waitFor } from '@platform/testing';
import { envelope, sharedSystem, type Partner, type System } from './support/system';

describe('instance company and property through the gateway (instance:read, instance:write)', () => {
  let sys: System;
  let partner: Partner;
  let other: Partner;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    sys = await sharedSystem();
    [partner, other] = await Promise.all([sys.partner(), sys.partner()]);
  });
  afterAll(async () => {
    await sys?.close();
    await receiver?.close();
  });

  const createDomain = async (who: Partner, extra: Record<string, unknown> = {}) => {
    const hostname = `instance-${randomUUID().slice(0, 8)}.example.com`;
    const res = await sys.arrange(who, 'POST', '/portal/domains', {
      domain: hostname,
      company_name: `Instance ${hostname}`,
      account_email: `owner@${hostname}`,
      company_setup: true,
      ...extra,
    });
    const d = res.body.result as { id: string; instance_property_id: string; instance_company_id: string };
    return { id: d.id, hostname, propertyId: d.instance_property_id, companyId: d.instance_company_id };
  };

  it('when the company is read and updated by domain_id, then the spec Company comes back with the change', async () => {
    const d = await createDomain(partner, { country: 'SE' });
    const read = await sys.call(partner, 'GET', `/portal/instance/company?domain_id=${d.id}`);
    expect(read.status).toBe(200);
    expect(instanceCompanySchema.strict().parse(read.body.result)).toMatchObject({
      id: d.companyId,
      address: { country: 'SE' },
    });
    const put = await sys.call(partner, 'PUT', `/portal/instance/company?domain_id=${d.id}`, {
      name: 'Instance AB',
      address: { city: 'Malmö' },
    });
    expect(put.status).toBe(200);
    expect(put.body.result).toMatchObject({ name: 'Instance AB', address: { country: 'SE', city: 'Malmö' } });
    const domain = await sys.call(partner, 'GET', `/portal/domains/${d.id}`);
    // The domain's company is the spec's Company: the instance company without its DPO.
    const { dpo, ...specCompany } = put.body.result;
    expect([dpo, domain.body.result.property.company]).toEqual([null, specCompany]);
  });

  it('when the DPO is set by PUT, then the company read and the widget show it; dpo null clears it', async () => {
    const d = await createDomain(partner);
    const settings = async () =>
      (
        await sys.call(undefined, 'GET', `/widget/v1/properties/${d.propertyId}/settings`, undefined, {
          origin: `https://${d.hostname}`,
        })
      ).body.result.dpo;
    expect(await settings()).toBeNull();
    const put = await sys.call(partner, 'PUT', `/portal/instance/company?domain_id=${d.id}`, {
      dpo: { name: 'Privacy Team', email: 'DPO@Example.org' },
    });
    expect(put.status).toBe(200);
    const dpo = { name: 'Privacy Team', email: 'dpo@example.org' };
    const read = await sys.call(partner, 'GET', `/portal/instance/company?domain_id=${d.id}`);
    expect(instanceCompanySchema.strict().parse(read.body.result).dpo).toEqual(dpo);
    expect(await settings()).toEqual(dpo);
    const bad = await sys.call(partner, 'PUT', `/portal/instance/company?domain_id=${d.id}`, { dpo: { email: 'x' } });
    expect([bad.status, bad.body]).toEqual([400, envelope('VALIDATION.INVALID', 400)]);
    await sys.call(partner, 'PUT', `/portal/instance/company?domain_id=${d.id}`, { dpo: null });
    expect(await settings()).toBeNull();
  });

  it('when the property changes by merchant_id, then a signed property.updated lists the changed fields and the widget shows the colour', async () => {
    const merchantId = `m-${randomUUID().slice(0, 8)}`;
    const d = await createDomain(partner, { merchant_id: merchantId });
    const at = `/instance-${randomUUID().slice(0, 8)}`;
    const hook = await sys.arrange(partner, 'POST', '/portal/webhooks', {
      url: `${receiver.url}${at}`,
      events: ['property.updated'],
    });
    const secret = (hook.body.result as { secret: string }).secret;
    const put = await sys.call(
      partner,
      'PUT',
      `/portal/instance/property?merchant_id=${merchantId}`,
      { primary_color: '#0a7a3b', widget_position: 'BOTTOM_RIGHT', has_welcome_message: true },
      { 'Idempotency-Key': `instance-${d.id}` },
    );
    expect(put.status).toBe(200);
    expect(instancePropertySchema.strict().parse(put.body.result)).toMatchObject({
      id: d.propertyId,
      primary_color: '#0a7a3b',
      widget_position: 'BOTTOM_RIGHT',
      has_welcome_message: true,
    });
    const [received] = await waitFor(
      () => {
        const got = receiver.received.filter((r) => r.path === at);
        return got.length > 0 ? got : undefined;
      },
      { timeoutMs: 15_000, what: 'property.updated at the receiver' },
    );
    new Webhook(secret).verify(received.body, received.headers as Record<string, string>);
    const payload = JSON.parse(received.body);
    expect(payload.event).toBe('property.updated');
    expect(payload.params).toEqual({
      property_id: d.propertyId,
      primary_color: '#0a7a3b',
      widget_position: 'BOTTOM_RIGHT',
      has_welcome_message: true,
    });
    // The event's data is the spec's property; the answer adds the widget's re-consent age, language,
    // texts, regime and Consent Mode switches.
    expect(payload.entity.kind).toBe('property');
    expect(payload.entity.data).not.toHaveProperty('consent_max_age_days');
    expect(payload.entity.data).not.toHaveProperty('text_overrides');
    expect(payload.entity.data).not.toHaveProperty('regime');
    const { consent_max_age_days, default_language, text_overrides, regime, ads_data_redaction, url_passthrough } =
      put.body.result;
    expect([default_language, text_overrides]).toEqual(['en', {}]);
    const extras = {
      consent_max_age_days,
      default_language,
      text_overrides,
      regime,
      ads_data_redaction,
      url_passthrough,
    };
    expect({ ...payload.entity.data, ...extras }).toEqual(put.body.result);
    const settings = await sys.call(undefined, 'GET', `/widget/v1/properties/${d.propertyId}/settings`, undefined, {
      origin: `https://${d.hostname}`,
    });
    expect(settings.body.result).toMatchObject({ primary_color: '#0a7a3b', widget_position: 'BOTTOM_RIGHT' });
  });

  it("when another partner's domain is named, or neither id, or a key lacks instance:write, then 404, 400 and 403", async () => {
    const d = await createDomain(partner);
    const foreign = await sys.call(other, 'GET', `/portal/instance/property?domain_id=${d.id}`);
    expect([foreign.status, foreign.body]).toEqual([404, envelope('RESOURCE.NOT_FOUND', 404)]);
    const none = await sys.call(partner, 'GET', '/portal/instance/property');
    expect([none.status, none.body]).toEqual([400, envelope('VALIDATION.INVALID', 400)]);
    const bad = await sys.call(partner, 'PUT', `/portal/instance/property?domain_id=${d.id}`, { primary_color: 'red' });
    expect([bad.status, bad.body]).toEqual([400, envelope('VALIDATION.INVALID', 400)]);
    const readOnly = await sys.partner(undefined, ['--permissions', 'instance:read']);
    const own = await createDomain(partner);
    const denied = await sys.call(readOnly, 'PUT', `/portal/instance/property?domain_id=${own.id}`, {
      primary_color: '#000000',
    });
    expect([denied.status, denied.body.error.data]).toEqual([403, { required: 'instance:write' }]);
  });
});
