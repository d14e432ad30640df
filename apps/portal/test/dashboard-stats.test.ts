// The dashboard's figures, computed from the domain list: counts per status and the weekly funnel.
import { countByStatus, weekStart, weeklyFunnel, WEEKS } from '../src/features/dashboard/stats';

const NOW = new Date('2026-11-26T12:00:00Z'); // a Thursday

describe('the dashboard figures', () => {
  it('when domains are counted, then every status has a count, zero included', () => {
    expect(countByStatus([{ status: 'NEW' }, { status: 'NEW' }, { status: 'ACTIVE' }])).toEqual({
      NEW: 2,
      SCANNED: 0,
      INVITED: 0,
      ACTIVE: 1,
      INACTIVE: 0,
    });
  });

  it('when a date is in a week, then the week starts on its Monday at 00:00 UTC', () => {
    expect(new Date(weekStart(NOW)).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(weekStart(new Date('2026-11-23T00:00:00Z'))).toBe(weekStart(new Date('2026-11-29T23:59:59Z')));
  });

  it('when domains are spread over time, then each lands in its week; older ones and nulls are left out', () => {
    const funnel = weeklyFunnel(
      [
        { created_at: '2026-11-24T10:00:00Z', activated_at: '2026-11-25T10:00:00Z' },
        { created_at: '2026-11-17T10:00:00Z', activated_at: null },
        { created_at: '2025-01-01T10:00:00Z', activated_at: null },
      ],
      NOW,
    );
    expect(funnel.weeks).toHaveLength(WEEKS);
    expect(funnel.weeks[WEEKS - 1]).toBe(weekStart(NOW) / 1000);
    expect(funnel.created.slice(-2)).toEqual([1, 1]);
    expect(funnel.activated.slice(-2)).toEqual([0, 1]);
    expect(funnel.created.reduce((a, b) => a + b, 0)).toBe(2);
  });
});
