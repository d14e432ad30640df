import jwt from 'jsonwebtoken';
import {
  generateInternalKeyPair,
  InternalTokenMinter,
  InternalTokenVerifier,
  GATEWAY_ITSELF_PARTNER_ID,
  mayCallRoute,
  type InternalCaller,
} from '../src';

const gatewayKeys = generateInternalKeyPair();
const servicesKeys = generateInternalKeyPair();
const strangerKeys = generateInternalKeyPair();

const caller: InternalCaller = {
  partnerId: '5d1f4a59-7c1e-4a55-9a55-0d3c8f0b6b11',
  keyId: '0b3e0f4e-3f7a-4d1b-8a8e-9f1c2b7d4e21',
  permissions: ['domains:read', 'domains:write'],
  requiredFields: ['phone_number'],
  defaults: { product: 'basic', priceList: 'eu' },
};

const verifierFor = (audience: string) =>
  new InternalTokenVerifier({ gateway: gatewayKeys.publicKey, services: servicesKeys.publicKey }, audience);

const T0 = new Date('2026-11-24T08:00:00Z').getTime();

beforeEach(() => {
  // Only the clock is faked: jsonwebtoken and the minter read Date.now().
  jest.useFakeTimers({
    now: T0,
    doNotFake: [
      'nextTick',
      'setImmediate',
      'setTimeout',
      'setInterval',
      'clearTimeout',
      'clearInterval',
      'queueMicrotask',
    ],
  });
});
afterEach(() => jest.useRealTimers());

describe('internal tokens: audience, expiry and signature', () => {
  it('when a token minted for one audience is verified for another, then it is refused (and accepted by its own)', () => {
    const token = new InternalTokenMinter(gatewayKeys.privateKey).mint(caller, 'domains');

    expect(verifierFor('billing').verify(token)).toBeUndefined();
    expect(verifierFor('domains').verify(token)).toEqual({ ...caller, issuer: 'gateway' });
  });

  it("when the partner's name (or a signed-in user) is in the token, then the verifier gives it back; a renamed partner gets a fresh token", () => {
    const minter = new InternalTokenMinter(gatewayKeys.privateKey);
    const named = { ...caller, partnerName: 'Acme Hosting', user: { id: 'u1', email: 'ada@acme.example' } };
    const token = minter.mint(named, 'domains');
    expect(verifierFor('domains').verify(token)).toEqual({ ...named, issuer: 'gateway' });
    const renamed = minter.mint({ ...named, partnerName: 'Acme Web' }, 'domains');
    expect(renamed).not.toBe(token);
    expect(verifierFor('domains').verify(renamed)?.partnerName).toBe('Acme Web');
  });

  it('when a token is presented after it expired, then it is refused, even by a verifier that accepted it before', () => {
    const token = new InternalTokenMinter(gatewayKeys.privateKey, 60).mint(caller, 'domains');
    const verifier = verifierFor('domains');
    expect(verifier.verify(token)).toBeDefined();

    jest.setSystemTime(T0 + 61_000);

    expect(verifier.verify(token)).toBeUndefined();
    expect(verifierFor('domains').verify(token)).toBeUndefined();
  });

  it('when a token is signed with a key the verifier does not know, then it is refused whatever issuer it claims', () => {
    const asGateway = new InternalTokenMinter(strangerKeys.privateKey, 60, 'gateway').mint(caller, 'domains');
    const asServices = new InternalTokenMinter(strangerKeys.privateKey, 60, 'services').mint(caller, 'domains');

    expect(verifierFor('domains').verify(asGateway)).toBeUndefined();
    expect(verifierFor('domains').verify(asServices)).toBeUndefined();
  });

  it('when a token is not one of ours (unsigned, another issuer, garbage), then it is refused', () => {
    const unsigned = jwt.sign({ pid: caller.partnerId }, '', {
      algorithm: 'none',
      audience: 'domains',
      issuer: 'gateway',
      subject: caller.keyId,
      expiresIn: 60,
    });
    const otherIssuer = jwt.sign({ pid: caller.partnerId }, gatewayKeys.privateKey, {
      algorithm: 'ES256',
      audience: 'domains',
      issuer: 'partner',
      subject: caller.keyId,
      expiresIn: 60,
    });

    expect(verifierFor('domains').verify(unsigned)).toBeUndefined();
    expect(verifierFor('domains').verify(otherIssuer)).toBeUndefined();
    expect(verifierFor('domains').verify('not-a-token')).toBeUndefined();
  });
});

describe('internal tokens: who signed them', () => {
  it('when the gateway mints a token for a partner call, then the service sees the caller with issuer "gateway"', () => {
    const token = new InternalTokenMinter(gatewayKeys.privateKey).mint(caller, 'domains');

    expect(verifierFor('domains').verify(token)?.issuer).toBe('gateway');
  });

  it('when a service mints a token with the services key, then the callee sees issuer "services"', () => {
    const token = new InternalTokenMinter(servicesKeys.privateKey, 60, 'services').mint(caller, 'billing');

    expect(verifierFor('billing').verify(token)).toEqual({ ...caller, issuer: 'services' });
  });

  it('when a token claims the gateway as issuer but is signed with the services key, then it is refused', () => {
    const token = new InternalTokenMinter(servicesKeys.privateKey, 60, 'gateway').mint(caller, 'domains');

    expect(verifierFor('domains').verify(token)).toBeUndefined();
  });

  it('when the verifier was given only the gateway key, then a services-signed token is refused', () => {
    const token = new InternalTokenMinter(servicesKeys.privateKey, 60, 'services').mint(caller, 'domains');

    expect(new InternalTokenVerifier(gatewayKeys.publicKey, 'domains').verify(token)).toBeUndefined();
  });
});

describe('who may call a route', () => {
  const gatewayCaller: InternalCaller = { ...caller, issuer: 'gateway' };
  const serviceCaller: InternalCaller = { ...caller, issuer: 'services' };
  const route = { permission: 'domains:read' };

  it('when a gateway-minted (partner) token calls an /internal route, then it may not, even holding the permission', () => {
    expect(mayCallRoute(gatewayCaller, route, true)).toBe(false);
  });

  it('when a services-signed token holding the permission calls an /internal route, then it may', () => {
    expect(mayCallRoute(serviceCaller, route, true)).toBe(true);
  });

  it('when either caller holds the permission of a /portal route, then it may call it', () => {
    expect(mayCallRoute(gatewayCaller, route, false)).toBe(true);
    expect(mayCallRoute(serviceCaller, route, false)).toBe(true);
  });

  it('when an /internal route is declared for the gateway, then only a token the gateway signed for itself may call it', () => {
    const forGateway = { permission: 'domains:read', internalCaller: 'gateway' as const };
    const gatewayItself: InternalCaller = { ...gatewayCaller, partnerId: GATEWAY_ITSELF_PARTNER_ID };
    expect(mayCallRoute(gatewayItself, forGateway, true)).toBe(true);
    expect(mayCallRoute({ ...gatewayItself, issuer: 'services' }, forGateway, true)).toBe(false);
    // A token the gateway minted for a partner's call, holding the permission: refused.
    expect(mayCallRoute(gatewayCaller, forGateway, true)).toBe(false);
  });

  it('when the caller lacks the route permission, then it may not call it, /internal or /portal', () => {
    const other = { permission: 'merchants:write' };
    expect(mayCallRoute(gatewayCaller, other, false)).toBe(false);
    expect(mayCallRoute(serviceCaller, other, true)).toBe(false);
  });
});

describe('the minter reuses tokens', () => {
  it('when the same caller is minted for again before the token is 15 s from expiry, then the same token comes back', () => {
    const minter = new InternalTokenMinter(gatewayKeys.privateKey, 60);
    const first = minter.mint(caller, 'domains');

    jest.setSystemTime(T0 + 44_000);

    expect(minter.mint(caller, 'domains')).toBe(first);
  });

  it('when the token is within 15 s of its expiry, then a new one is minted that outlives it', () => {
    const minter = new InternalTokenMinter(gatewayKeys.privateKey, 60);
    const first = minter.mint(caller, 'domains');

    jest.setSystemTime(T0 + 46_000);
    const renewed = minter.mint(caller, 'domains');

    expect(renewed).not.toBe(first);
    jest.setSystemTime(T0 + 61_000);
    expect(verifierFor('domains').verify(first)).toBeUndefined();
    expect(verifierFor('domains').verify(renewed)).toBeDefined();
  });

  it('when the audience or any claim differs, then another token is minted', () => {
    const minter = new InternalTokenMinter(gatewayKeys.privateKey, 60);
    const first = minter.mint(caller, 'domains');

    expect(minter.mint(caller, 'billing')).not.toBe(first);
    expect(minter.mint({ ...caller, permissions: ['domains:read'] }, 'domains')).not.toBe(first);
    expect(minter.mint({ ...caller, defaults: { product: 'pro' } }, 'domains')).not.toBe(first);
  });
});
