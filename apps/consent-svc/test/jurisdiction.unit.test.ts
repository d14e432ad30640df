import { jurisdictionOf } from '../src/domain/jurisdiction';

describe('jurisdiction from country and region', () => {
  it.each([
    ['SE', 'Stockholm', 'GDPR'],
    ['NO', null, 'GDPR'],
    ['GB', 'England', 'UK_GDPR'],
    ['US', 'California', 'CCPA'],
    ['US', 'Washington', null],
    ['BR', 'Sao Paulo', 'LGPD'],
    ['CA', 'Ontario', 'PIPEDA'],
    ['AU', 'New South Wales', null],
    [null, null, null],
  ])('%s / %s -> %s', (country, region, law) => {
    expect(jurisdictionOf(country, region)).toBe(law);
  });
});
