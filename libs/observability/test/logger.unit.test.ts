import { Writable } from 'node:stream';
import { createLogger } from '../src';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger('test', 'info', stream) };
}

describe('logger', () => {
  it('when an unknown database error is logged, then its code and message are kept and the row data it quotes is not', () => {
    const { lines, logger } = capture();
    const err = Object.assign(
      new Error('duplicate key value violates unique constraint "domains_partner_hostname_key"'),
      {
        code: '23505',
        detail: 'Key (partner_id, hostname)=(p1, secret-customer.example.com) already exists.',
        where: 'SQL statement "INSERT ..."',
        parameters: ['owner@secret-customer.example.com'],
        table: 'domains',
      },
    );
    logger.error({ err }, 'unhandled error');
    const logged = JSON.stringify(lines[0]);
    expect(lines[0].err).toMatchObject({ code: '23505', message: expect.stringContaining('unique constraint') });
    expect(logged).not.toContain('secret-customer');
  });

  it('when a line carries a key, a token or an authorization header, then they are redacted', () => {
    const { lines, logger } = capture();
    logger.info({ key: 'pdm_live_abc_secret', headers: { authorization: 'Bearer x' }, nested: { token: 't' } }, 'call');
    expect(JSON.stringify(lines[0])).not.toMatch(/pdm_live_abc_secret|Bearer x|"t"/);
  });
});
