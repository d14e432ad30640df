import { OPT_OUT_REGIONS } from '@platform/contracts';
import { GeoIp, regimeOf, SAMPLE_ADDRESSES, US_STATES } from '../src';

describe('the regime of a place', () => {
  it.each([
    [{ country: 'DE', jurisdiction: 'GDPR' }, 'OPT_IN'],
    [{ country: 'GB', jurisdiction: 'UK_GDPR' }, 'OPT_IN'],
    [{ country: 'CH', jurisdiction: 'FADP' }, 'OPT_IN'],
    [{ country: 'US', jurisdiction: 'CCPA' }, 'OPT_OUT'],
    [{ country: 'US', jurisdiction: 'RIDTPPA' }, 'OPT_OUT'],
    [{ country: 'US', jurisdiction: null }, 'NOTICE_ONLY'],
    [{ country: 'BR', jurisdiction: 'LGPD' }, 'NOTICE_ONLY'],
    [{ country: 'AU', jurisdiction: null }, 'NOTICE_ONLY'],
    // Not knowing where a visitor is never lowers the bar.
    [{ country: null, jurisdiction: null }, 'OPT_IN'],
  ] as const)('%j -> %s', (place, regime) => {
    expect(regimeOf(place)).toBe(regime);
  });

  it("names the same opt-out states as the contracts' Consent Mode regions", () => {
    expect(
      Object.values(US_STATES)
        .map((s) => s.region)
        .sort(),
    ).toEqual([...OPT_OUT_REGIONS].sort());
    expect(new Set(Object.values(US_STATES).map((s) => s.law)).size).toBe(Object.keys(US_STATES).length);
  });
});

describe('the sample addresses in the packaged database', () => {
  const geo = new GeoIp();
  it.each([
    ['berlin', 'DE', 'Berlin', 'OPT_IN'],
    ['losAngeles', 'US', 'California', 'OPT_OUT'],
    ['texas', 'US', 'Texas', 'OPT_OUT'],
    ['ohio', 'US', 'Ohio', 'NOTICE_ONLY'],
    ['saoPaulo', 'BR', 'Sao Paulo', 'NOTICE_ONLY'],
    ['tokyo', 'JP', 'Tokyo', 'NOTICE_ONLY'],
  ] as const)('%s is %s / %s: %s', (name, country, region, regime) => {
    const place = geo.lookup(SAMPLE_ADDRESSES[name]);
    expect(place).toMatchObject({ country, region });
    expect(regimeOf(place)).toBe(regime);
  });

  it('gives nulls (so OPT_IN) for a private address or none', () => {
    expect(geo.lookup('192.168.1.1')).toEqual({ country: null, region: null, jurisdiction: null });
    expect(regimeOf(geo.lookup(undefined))).toBe('OPT_IN');
  });
});
