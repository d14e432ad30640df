import { ownerConsoleRoutes, routeOf } from '@platform/contracts';
import { AppError } from '@platform/http';
import { senderOf } from '../src/http/gateway-routes';
import { ownerRefusal } from '../src/http/session-requests';
import type { SignedInOwner } from '../src/identity/signed-in-owner';
import { assertKeepsAnOwner, assertMayTouchOwner } from '../src/owner-access/owner-rules';

const owner = (role: SignedInOwner['role']): SignedInOwner => ({
  sessionId: 's-1',
  csrfToken: 'csrf',
  ownerUserId: 'o-1',
  partnerId: 'p-1',
  partnerName: 'Partner',
  companyId: 'c-1',
  email: 'olga@shop.test',
  name: null,
  role,
});

const codeOf = (run: () => void) => {
  try {
    run();
    return 'ok';
  } catch (err) {
    return err instanceof AppError ? err.code : String(err);
  }
};

describe('the owner console (pure parts)', () => {
  it.each([
    ['VIEWER', 'getOwnerProperty', undefined],
    ['VIEWER', 'updateOwnerProperty', 'AUTH.FORBIDDEN'],
    ['ADMIN', 'updateOwnerProperty', undefined],
    ['ADMIN', 'inviteOwnerUser', undefined],
    ['OWNER', 'deleteOwnerUser', undefined],
  ] as const)('when the role %s calls %s, then the dispatcher refuses with %s', (role, operationId, code) => {
    expect(ownerRefusal(routeOf(ownerConsoleRoutes, operationId), owner(role))?.code).toBe(code);
  });

  it('when no owner session calls an owner console route, then 401; the 403 names the role needed', () => {
    const put = routeOf(ownerConsoleRoutes, 'updateOwnerProperty');
    expect(ownerRefusal(put, undefined)?.code).toBe('AUTH.SESSION_REQUIRED');
    const refused = ownerRefusal(put, owner('VIEWER'));
    expect(refused?.message).toBe('Your role VIEWER may not do this; it takes ADMIN or OWNER.');
    expect(refused?.data).toEqual({ required: 'ADMIN' });
  });

  it("when an owner sends a keyed write, then the key is the partner's and the sender is owner:<id>", () => {
    expect(senderOf({ ip: '127.0.0.1', owner: owner('ADMIN') })).toEqual({ partnerId: 'p-1', id: 'owner:o-1' });
    expect(senderOf({ ip: '127.0.0.1' })).toBeUndefined();
  });

  it('when the last OWNER would be demoted, turned off or removed, then LAST_OWNER; otherwise the change passes', () => {
    expect(codeOf(() => assertKeepsAnOwner(['a'], 'a', { role: 'ADMIN' }))).toBe('ACCESS_USER.LAST_OWNER');
    expect(codeOf(() => assertKeepsAnOwner(['a'], 'a', { access: false }))).toBe('ACCESS_USER.LAST_OWNER');
    expect(codeOf(() => assertKeepsAnOwner(['a'], 'a', 'remove'))).toBe('ACCESS_USER.LAST_OWNER');
    expect(codeOf(() => assertKeepsAnOwner(['a'], 'a', { role: 'OWNER', access: true }))).toBe('ok');
    expect(codeOf(() => assertKeepsAnOwner(['a', 'b'], 'a', 'remove'))).toBe('ok');
    expect(codeOf(() => assertKeepsAnOwner(['a'], 'b', 'remove'))).toBe('ok');
    expect(codeOf(() => assertKeepsAnOwner([], 'b', { access: false }))).toBe('ok');
  });

  it('when an ADMIN grants, changes or removes OWNER, then 403; the partner and an OWNER may', () => {
    expect(codeOf(() => assertMayTouchOwner('ADMIN', { newRole: 'OWNER' }))).toBe('AUTH.FORBIDDEN');
    expect(codeOf(() => assertMayTouchOwner('ADMIN', { role: 'OWNER' }))).toBe('AUTH.FORBIDDEN');
    expect(codeOf(() => assertMayTouchOwner('ADMIN', { role: 'VIEWER', newRole: 'ADMIN' }))).toBe('ok');
    expect(codeOf(() => assertMayTouchOwner('OWNER', { role: 'OWNER', newRole: 'VIEWER' }))).toBe('ok');
    expect(codeOf(() => assertMayTouchOwner(undefined, { role: 'OWNER' }))).toBe('ok');
  });
});
