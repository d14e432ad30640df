import { Breaker, KeyedBreakers } from '../src/breaker';
import { DeadlineExceeded, outcomeOfAnswer, outcomeOfError, verdictOf } from '../src/breaker-rules';

const settings = { errorThresholdPercentage: 50, volumeThreshold: 4, rollingCountTimeout: 10_000, resetTimeout: 5_000 };

describe('Breaker', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => {
    now = 1_000_000;
  });

  it('when half the calls in the window failed and volumeThreshold calls were made, then it opens; fewer calls never open it', () => {
    const breaker = new Breaker(settings, clock);
    breaker.failure();
    breaker.failure();
    breaker.success();
    expect(breaker.opened).toBe(false);
    breaker.failure();
    expect(breaker.opened).toBe(true);
    expect(breaker.allows()).toBe(false);
  });

  it('when failures are older than the rolling window, then they no longer count', () => {
    const breaker = new Breaker(settings, clock);
    for (let i = 0; i < 3; i++) breaker.failure();
    now += 11_000;
    breaker.failure();
    for (let i = 0; i < 3; i++) breaker.success();
    expect(breaker.opened).toBe(false);
  });

  it('when open for resetTimeout, then one trial goes through: its success closes it, its failure opens it again', () => {
    const breaker = new Breaker(settings, clock);
    for (let i = 0; i < 4; i++) breaker.failure();
    now += 4_999;
    expect(breaker.allows()).toBe(false);
    now += 1;
    expect(breaker.allows()).toBe(true);
    expect(breaker.allows()).toBe(false); // one trial at a time
    breaker.failure();
    expect(breaker.opened).toBe(true);
    now += 5_000;
    expect(breaker.allows()).toBe(true);
    breaker.success();
    expect(breaker.opened).toBe(false);
    expect(breaker.allows()).toBe(true);
  });

  it('when a half-open trial ends neutral, then the next call may be the trial', () => {
    const breaker = new Breaker(settings, clock);
    for (let i = 0; i < 4; i++) breaker.failure();
    now += 5_000;
    expect(breaker.allows()).toBe(true);
    breaker.neutral();
    expect(breaker.allows()).toBe(true);
  });

  it('when one key fails, then only that key is open', () => {
    const breakers = new KeyedBreakers(settings, clock);
    for (let i = 0; i < 4; i++) breakers.get('noisy').failure();
    expect(breakers.isOpen('noisy')).toBe(true);
    expect(breakers.isOpen('quiet')).toBe(false);
    expect(breakers.get('quiet').allows()).toBe(true);
  });
});

describe('the breaker rules (verdictOf)', () => {
  const answered = (status: number, contentType = 'application/json; charset=utf-8') =>
    verdictOf(outcomeOfAnswer(status, contentType));

  it('when the service answers in the envelope, whatever the status, then it is alive: the shared breaker counts a success', () => {
    for (const status of [200, 400, 404, 409, 500, 502, 503, 504]) expect(answered(status).service).toBe('ok');
  });

  it("when it answers 502/503/504 in the envelope (its dependency, this partner's locks), then only the partner's breaker counts a failure", () => {
    for (const status of [502, 503, 504]) expect(answered(status)).toEqual({ service: 'ok', partner: 'failure' });
  });

  it("when it answers 500 in the envelope, then no breaker counts a failure (one request's bug)", () => {
    expect(answered(500)).toEqual({ service: 'ok', partner: 'neutral' });
  });

  it("when something answers an error outside the envelope (a proxy's page, a stranger on the port), then the shared breaker counts a failure", () => {
    expect(answered(502, 'text/html')).toEqual({ service: 'failure', partner: 'neutral' });
    expect(answered(404, 'text/plain').service).toBe('failure');
  });

  it('when the connection is refused or reset, then the shared breaker counts a failure', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']) {
      expect(verdictOf(outcomeOfError(Object.assign(new Error(code), { code })))).toEqual({
        service: 'failure',
        partner: 'neutral',
      });
    }
  });

  it('when the call times out, then the partner counts a failure, and the shared breaker only after a liveness check', () => {
    expect(verdictOf(outcomeOfError(new DeadlineExceeded(100)))).toEqual({ service: 'unknown', partner: 'failure' });
    expect(verdictOf(outcomeOfError(Object.assign(new Error('headers'), { code: 'UND_ERR_HEADERS_TIMEOUT' })))).toEqual(
      { service: 'unknown', partner: 'failure' },
    );
  });

  it('when the request could not be sent as given, then no breaker counts it', () => {
    expect(verdictOf(outcomeOfError(Object.assign(new Error('bad header'), { code: 'UND_ERR_INVALID_ARG' })))).toEqual({
      service: 'neutral',
      partner: 'neutral',
    });
  });
});
