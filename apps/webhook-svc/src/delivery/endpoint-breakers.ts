import CircuitBreaker from 'opossum';
import type { Logger } from '@platform/observability';
import type { AttemptResult } from './delivery-work.repository';
import type { Attempted } from './attempt';

export interface BreakerSettings {
  volumeThreshold: number;
  errorThresholdPercentage: number;
  resetTimeoutMs: number;
}

/** Thrown inside a breaker for an attempt that says the endpoint is unwell, so the breaker counts it. */
class EndpointUnwell extends Error {
  constructor(readonly result: AttemptResult) {
    super('endpoint failed');
  }
}

type Breaker = CircuitBreaker<[() => Promise<AttemptResult>], AttemptResult>;

/** A breaker (opossum) per endpoint, so a failing endpoint's deliveries wait without holding back the others'. */
export class EndpointBreakers {
  private readonly breakers = new Map<string, { breaker: Breaker; usedAt: number }>();

  constructor(
    private readonly settings: BreakerSettings,
    private readonly log: Logger,
  ) {}

  /** Runs the attempt through its endpoint's breaker: its result, or 'open' when the breaker refused to run it. */
  async fire(endpointId: string, attempt: () => Promise<Attempted>): Promise<AttemptResult | 'open'> {
    try {
      return await this.breakerFor(endpointId).fire(async () => {
        const { result, unwell } = await attempt();
        if (unwell) throw new EndpointUnwell(result);
        return result;
      });
    } catch (err) {
      if (err instanceof EndpointUnwell) return err.result;
      if ((err as { code?: string }).code === 'EOPENBREAKER') return 'open';
      throw err;
    }
  }

  /** Breakers of endpoints not seen for 10 minutes are forgotten (closed ones only). */
  prune(): void {
    const before = Date.now() - 10 * 60_000;
    for (const [id, entry] of this.breakers) {
      if (entry.usedAt < before && entry.breaker.closed) {
        entry.breaker.shutdown();
        this.breakers.delete(id);
      }
    }
  }

  shutdown(): void {
    for (const { breaker } of this.breakers.values()) breaker.shutdown();
  }

  private breakerFor(endpointId: string): Breaker {
    let entry = this.breakers.get(endpointId);
    if (!entry) {
      const { volumeThreshold, errorThresholdPercentage, resetTimeoutMs } = this.settings;
      const breaker: Breaker = new CircuitBreaker(async (attempt: () => Promise<AttemptResult>) => attempt(), {
        timeout: false, // the outbound client has its own deadlines
        volumeThreshold,
        errorThresholdPercentage,
        resetTimeout: resetTimeoutMs,
        rollingCountTimeout: 60_000,
        rollingCountBuckets: 6,
      });
      breaker.on('open', () => this.log.warn({ endpointId }, 'endpoint breaker opened: its deliveries wait'));
      entry = { breaker, usedAt: Date.now() };
      this.breakers.set(endpointId, entry);
    }
    entry.usedAt = Date.now();
    return entry.breaker;
  }
}
