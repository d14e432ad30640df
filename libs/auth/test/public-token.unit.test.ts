import {
  generateInternalKeyPair,
  InternalTokenMinter,
  InternalTokenVerifier,
  PublicTokenVerifier,
  type InternalCaller,
} from '../src';

const gatewayKeys = generateInternalKeyPair();
const servicesKeys = generateInternalKeyPair();

const caller: InternalCaller = { partnerId: 'p-1', keyId: 'k-1', permissions: ['domains:read'], requiredFields: [] };

describe('public tokens: the widget requests the gateway forwards without an API key', () => {
  it('when the gateway mints a public token, then the public verifier of that audience accepts it and of another refuses it', () => {
    const token = new InternalTokenMinter(gatewayKeys.privateKey).mintPublic('domains');
    expect(new PublicTokenVerifier(gatewayKeys.publicKey, 'domains').verify(token)).toBe(true);
    expect(new PublicTokenVerifier(gatewayKeys.publicKey, 'consent').verify(token)).toBe(false);
  });

  it('when a public token is presented on a partner route, then the internal verifier refuses it (no partner, no permission)', () => {
    const token = new InternalTokenMinter(gatewayKeys.privateKey).mintPublic('domains');
    expect(
      new InternalTokenVerifier({ gateway: gatewayKeys.publicKey, services: servicesKeys.publicKey }, 'domains').verify(
        token,
      ),
    ).toBeUndefined();
  });

  it("when a partner's token or a service-signed public token is presented on a public route, then the public verifier refuses it", () => {
    const partnerToken = new InternalTokenMinter(gatewayKeys.privateKey).mint(caller, 'domains');
    const servicesPublic = new InternalTokenMinter(servicesKeys.privateKey, 60, 'services').mintPublic('domains');
    const verifier = new PublicTokenVerifier(gatewayKeys.publicKey, 'domains');
    expect(verifier.verify(partnerToken)).toBe(false);
    expect(verifier.verify(servicesPublic)).toBe(false);
    expect(verifier.verify('not.a.token')).toBe(false);
  });
});
