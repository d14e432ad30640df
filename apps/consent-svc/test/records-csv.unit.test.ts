import { csvCell, CSV_HEAD, csvRow, RECORDS_CSV_HEADER } from '../src/figures/records-csv';

describe('the records export as CSV (pure parts)', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['line\nbreak', '"line\nbreak"'],
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

  it('when a record is exported, then after a BOM and the header its row names the granted and denied categories', () => {
    expect(CSV_HEAD).toBe(`\uFEFF${RECORDS_CSV_HEADER.join(',')}\r\n`);
    const row = csvRow({
      receipt_id: 'RCPT_1',
      created_at: '2026-11-20T12:00:00.000Z',
      receipt_type: 'COOKIE_CONSENT',
      receipt_status: 'PARTIAL',
      categories: { necessary: true, functional: true, analytics: false, marketing: false },
      gpc: false,
      country: 'SE',
      region: null,
      jurisdiction: 'GDPR',
      property_id: 'prop-1',
      subject: '-visitor-token-0001',
      consent_revision: 'r1',
      widget_version: '1.0.0',
    });
    expect(row).toBe(
      `RCPT_1,2026-11-20T12:00:00.000Z,COOKIE_CONSENT,PARTIAL,necessary functional,analytics marketing,false,SE,,GDPR,prop-1,"'-visitor-token-0001",r1,1.0.0\r\n`,
    );
  });
});
