import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
export { hashToken, newToken } from './link-tokens';

/** What a service learns about the caller from the gateway's internal token. */
export interface InternalCaller {
  partnerId: string;
  keyId: string;
  permissions: string[];
  /** Create-domain fields this partner's onboarding settings make required (owned by the gateway). */
  requiredFields: string[];
  /** The partner's default product and price list codes (owned by the gateway), for domains created without them. */
  defaults?: PartnerDefaults;
  /** Who signed the token (set by the verifier): only `services` may call another service's /internal routes. */
  issuer?: TokenIssuer;
  /** The signed-in portal user when the call comes from a session (keyId is then `user:<id>`); absent for an API key. */
  user?: CallingUser;
  /** The partner's display name (owned by the gateway), e.g. for the partner_name of owner e-mail templates. */
  partnerName?: string;
}

/** A signed-in portal user, as services learn of them (e.g. a template's test send goes to their e-mail). */
export interface CallingUser {
  id: string;
  email: string;
}

export interface PartnerDefaults {
  product?: string;
  priceList?: string;
}

/** Who signs internal tokens: the gateway (for partners' API calls) or a service (calling another on a partner's behalf). */
export type TokenIssuer = 'gateway' | 'services';
const ALGORITHM = 'ES256';

/** The claim that marks a public request's token, and its subject. */
const PUBLIC_CLAIM = 'pub';
const PUBLIC_SUBJECT = 'public';

export function generateInternalKeyPair(): { privateKey: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/**
 * Mints short-lived ES256 tokens (audience = target service) and reuses one per
 * (key, audience) until shortly before it expires, so signing stays off the hot path.
 */
export class InternalTokenMinter {
  private readonly key: KeyObject;
  private readonly cache = new Map<string, { token: string; renewAt: number }>();

  constructor(
    privateKeyPem: string,
    private readonly ttlSeconds = 60,
    private readonly issuer: TokenIssuer = 'gateway',
  ) {
    this.key = createPrivateKey(privateKeyPem);
  }

  mint(caller: InternalCaller, audience: string): string {
    // Every claim is in the key: a partner's changed settings, or a service calling with other permissions, get a fresh token.
    const cacheKey = `${caller.keyId}|${caller.user?.email ?? ''}|${audience}|${caller.permissions.join(',')}|${caller.requiredFields.join(',')}|${caller.defaults?.product ?? ''}|${caller.defaults?.priceList ?? ''}|${caller.partnerName ?? ''}`;
    const now = Date.now();
    const cached = this.cache.get(cacheKey);
    if (cached && cached.renewAt > now) return cached.token;
    const claims = {
      pid: caller.partnerId,
      perms: caller.permissions,
      req: caller.requiredFields,
      ...(caller.defaults ? { def: caller.defaults } : {}),
      ...(caller.user ? { usr: caller.user } : {}),
      ...(caller.partnerName !== undefined ? { pnm: caller.partnerName } : {}),
    };
    const token = jwt.sign(claims, this.key, {
      algorithm: ALGORITHM,
      audience,
      issuer: this.issuer,
      subject: caller.keyId,
      expiresIn: this.ttlSeconds,
    });
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(cacheKey, { token, renewAt: now + (this.ttlSeconds - 15) * 1000 });
    return token;
  }

  /**
   * The token of a public request (the widget's, no API key) the gateway forwards: it names no
   * partner and holds no permission, so only a service's public routes accept it (PUBLIC_CLAIM).
   */
  mintPublic(audience: string): string {
    const cacheKey = `public|${audience}`;
    const now = Date.now();
    const cached = this.cache.get(cacheKey);
    if (cached && cached.renewAt > now) return cached.token;
    const token = jwt.sign({ [PUBLIC_CLAIM]: true }, this.key, {
      algorithm: ALGORITHM,
      audience,
      issuer: this.issuer,
      subject: PUBLIC_SUBJECT,
      expiresIn: this.ttlSeconds,
    });
    this.cache.set(cacheKey, { token, renewAt: now + (this.ttlSeconds - 15) * 1000 });
    return token;
  }
}

/**
 * Verifies internal tokens for one audience. The gateway's key is always trusted; the services'
 * key, when given, lets one service call another on a partner's behalf (it never signs for the gateway).
 */
export class InternalTokenVerifier {
  private readonly keys: Partial<Record<TokenIssuer, KeyObject>>;
  /** The gateway reuses a token for up to a minute, so a verified token is remembered until it expires. */
  private readonly verified = new Map<string, { caller: InternalCaller; expiresAt: number }>();

  constructor(
    publicKeys: string | { gateway: string; services?: string },
    private readonly audience: string,
    private readonly maxCached = 10_000,
  ) {
    const pems = typeof publicKeys === 'string' ? { gateway: publicKeys } : publicKeys;
    this.keys = {
      gateway: createPublicKey(pems.gateway),
      ...(pems.services ? { services: createPublicKey(pems.services) } : {}),
    };
  }

  verify(token: string): InternalCaller | undefined {
    const hit = this.verified.get(token);
    if (hit) {
      if (hit.expiresAt > Date.now()) return hit.caller;
      this.verified.delete(token);
    }
    try {
      const claimed = (jwt.decode(token) as jwt.JwtPayload | null)?.iss;
      const issuer: TokenIssuer | undefined = claimed === 'gateway' || claimed === 'services' ? claimed : undefined;
      const key = issuer ? this.keys[issuer] : undefined;
      if (!key) return undefined;
      const claims = jwt.verify(token, key, {
        algorithms: [ALGORITHM],
        audience: this.audience,
        issuer,
      }) as jwt.JwtPayload;
      if (
        claims[PUBLIC_CLAIM] !== undefined ||
        typeof claims.pid !== 'string' ||
        typeof claims.sub !== 'string' ||
        typeof claims.exp !== 'number'
      )
        return undefined;
      const caller: InternalCaller = {
        partnerId: claims.pid,
        keyId: claims.sub,
        permissions: Array.isArray(claims.perms) ? claims.perms : [],
        requiredFields: Array.isArray(claims.req) ? claims.req : [],
        ...(isDefaults(claims.def) ? { defaults: claims.def } : {}),
        ...(isUser(claims.usr) ? { user: { id: claims.usr.id, email: claims.usr.email } } : {}),
        ...(typeof claims.pnm === 'string' ? { partnerName: claims.pnm } : {}),
        issuer,
      };
      if (this.verified.size >= this.maxCached) this.verified.clear();
      this.verified.set(token, { caller, expiresAt: claims.exp * 1000 });
      return caller;
    } catch {
      return undefined;
    }
  }
}

/**
 * Whether a token is the gateway's public token for this audience (see mintPublic): only the
 * gateway's key, never a service's, and never a partner's token (those carry no PUBLIC_CLAIM).
 */
export class PublicTokenVerifier {
  private verifiedUntil = new Map<string, number>();
  private readonly key: KeyObject;

  constructor(
    gatewayPublicKey: string,
    private readonly audience: string,
  ) {
    this.key = createPublicKey(gatewayPublicKey);
  }

  verify(token: string): boolean {
    const until = this.verifiedUntil.get(token);
    if (until !== undefined && until > Date.now()) return true;
    try {
      const claims = jwt.verify(token, this.key, {
        algorithms: [ALGORITHM],
        audience: this.audience,
        issuer: 'gateway',
        subject: PUBLIC_SUBJECT,
      }) as jwt.JwtPayload;
      if (claims[PUBLIC_CLAIM] !== true || typeof claims.exp !== 'number') return false;
      if (this.verifiedUntil.size >= 1_000) this.verifiedUntil.clear();
      this.verifiedUntil.set(token, claims.exp * 1000);
      return true;
    } catch {
      return false;
    }
  }
}

const isDefaults = (v: unknown): v is PartnerDefaults =>
  typeof v === 'object' && v !== null && Object.values(v).every((x) => typeof x === 'string');

/** The partnerId of the gateway acting for itself (for a public caller, no partner), never a partner's id. */
export const GATEWAY_ITSELF_PARTNER_ID = 'gateway';

/**
 * Whether a verified caller may use a route: it must hold the route's permission (the gateway
 * checked the key's; a service checks again, so a token is not a skeleton key), and an /internal
 * route takes only a token a service signed: one the gateway minted for a partner cannot reach it.
 * An /internal route declared for the gateway (internalCaller) takes only the gateway's tokens
 * minted for itself: a token it minted for a partner's call (e.g. leaked from a service) cannot.
 */
export const mayCallRoute = (
  caller: InternalCaller,
  route: { permission?: string; internalCaller?: TokenIssuer },
  internalRoute: boolean,
): boolean =>
  route.permission !== undefined &&
  caller.permissions.includes(route.permission) &&
  (!internalRoute || caller.issuer === (route.internalCaller ?? 'services')) &&
  (!internalRoute || route.internalCaller !== 'gateway' || caller.partnerId === GATEWAY_ITSELF_PARTNER_ID);

/**
 * A JWKS holding one new Ed25519 private key (RFC 8037), as consent-svc's RECORD_SIGNING_KEYS
 * takes it: the key id is derived from the public key, so a key names itself the same everywhere.
 */
export function generateRecordSigningKeys(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const kid = `rec-${createHash('sha256').update(String(jwk.x)).digest('base64url').slice(0, 16)}`;
  return JSON.stringify({ keys: [{ ...jwk, kid, alg: 'EdDSA', use: 'sig' }] });
}

const isUser = (v: unknown): v is CallingUser =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as CallingUser).id === 'string' &&
  typeof (v as CallingUser).email === 'string';
