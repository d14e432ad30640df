import { jurisdictionOf } from '../src/jurisdiction';

describe('jurisdiction from country and region', () => {
  it.each([
    ['SE', 'Stockholm', 'GDPR'],
    ['NO', null, 'GDPR'],
    ['GB', 'England', 'UK_GDPR'],
    ['US', 'California', 'CCPA'],
    ['US', 'Washington', null],
    ['US', 'Texas', 'TDPSA'],
    ['US', 'Rhode Island', 'RIDTPPA'],
    ['BR', 'Sao Paulo', 'LGPD'],
    ['CA', 'Ontario', 'PIPEDA'],
    ['AU', 'New South Wales', null],
    [null, null, null],
  ])('%s / %s -> %s', (country, region, law) => {
    expect(jurisdictionOf(country, region)).toBe(law);
  });
});
