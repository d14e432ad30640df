import { ownerConsoleRoutes, routeOf, type ConsentRecord } from '@platform/contracts';
import { AppError } from '@platform/http';
import { senderOf } from '../src/http/gateway-routes';
import { ownerRefusal } from '../src/http/session-requests';
import type { SignedInOwner } from '../src/identity/signed-in-owner';
import { assertKeepsAnOwner, assertMayTouchOwner } from '../src/owner-access/owner-rules';
import { csvCell, RECORDS_CSV_HEADER, recordsCsv } from '../src/owner-console/records-csv';

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

  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ['+1', `"'+1"`],
    ['-abcdefghijklmnop', `"'-abcdefghijklmnop"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['  =1+1', `"'  =1+1"`],
    ['\tx', `"'\tx"`],
    ['\rx', `"'\rx"`],
    ['', ''],
  ])('when a cell holds %j, then the CSV has %s', (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it('when records are exported, then a BOM, the header and a row per record with granted and denied categories', () => {
    const record = {
      receipt_id: 'RCPT_1',
      receipt_type: 'COOKIE_CONSENT',
      receipt_status: 'PARTIAL',
      country: 'SE',
      region: null,
      jurisdiction: 'GDPR',
      meta: { widget_version: '1.0.0', consent_revision: 'r1', gpc: false },
      data_collection: [
        {
          purposes: ['necessary', 'functional', 'analytics', 'marketing'].map((category) => ({
            category,
            status: category === 'necessary' || category === 'functional' ? 'GRANTED' : 'DENIED',
          })),
        },
      ],
      subject: '-visitor-token-0001',
      property_id: 'prop-1',
      created_at: '2026-11-20T12:00:00.000Z',
    } as unknown as ConsentRecord;
    const text = recordsCsv([record]).toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text.slice(1).split('\r\n')).toEqual([
      RECORDS_CSV_HEADER.join(','),
      `RCPT_1,2026-11-20T12:00:00.000Z,COOKIE_CONSENT,PARTIAL,necessary functional,analytics marketing,false,SE,,GDPR,prop-1,"'-visitor-token-0001",r1,1.0.0`,
      '',
    ]);
  });
});
