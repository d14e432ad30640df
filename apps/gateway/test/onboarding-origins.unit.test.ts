import { widgetOriginSchema } from '@platform/contracts';
import { isAllowedOrigin } from '../src/onboarding/widget-guard';

describe("the onboarding widgets' origins", () => {
  const allowed = ['https://panel.example.com', 'http://checkout.example.com:8080'];

  it.each([
    ['https://panel.example.com', true],
    ['http://checkout.example.com:8080', true],
    ['http://panel.example.com', false], // another scheme
    ['https://panel.example.com:8443', false], // another port
    ['http://checkout.example.com', false],
    ['https://shop.panel.example.com', false], // a subdomain is another origin
    ['https://panel.example.com.evil.net', false],
    ['https://PANEL.example.com', false], // not as a browser serialises it
    ['https://panel.example.com/', false],
    ['null', false],
    [undefined, false],
  ])('when the page sends Origin %s, then allowed is %s', (origin, expected) => {
    expect(isAllowedOrigin(origin, allowed)).toBe(expected);
  });

  it('when a partner types an origin, then it is kept as a browser sends it, and anything with a path, query or user is refused', () => {
    const parse = (v: string) => widgetOriginSchema.safeParse(v);
    expect(parse(' HTTPS://Panel.Example.com/ ').data).toBe('https://panel.example.com');
    expect(parse('https://panel.example.com:443').data).toBe('https://panel.example.com');
    expect(parse('http://localhost:8080').data).toBe('http://localhost:8080');
    for (const bad of [
      'panel.example.com',
      'ftp://panel.example.com',
      'https://panel.example.com/login',
      'https://a@panel.example.com',
      'https://panel.example.com/?x=1',
    ])
      expect(parse(bad).success).toBe(false);
  });
});
