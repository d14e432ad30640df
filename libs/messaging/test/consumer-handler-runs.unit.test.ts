import type { EventMessage } from '@platform/contracts';
import { handlerRuns } from '../src/handlers';

function handled(event: string, id = `${event}-${Math.random()}`): { message: EventMessage } {
  return {
    message: {
      id,
      partner_id: 'p',
      occurred_at: '2026-01-01T00:00:00Z',
      source: 's',
      aggregate_id: 'a',
      version: 1,
      payload: { event, params: {} },
    },
  };
}

describe('consumer handler runs', () => {
  const batchHandler = () => undefined;
  const batched = (event: string) => (event === 'b' ? batchHandler : undefined);
  const shape = (todo: { message: EventMessage }[]) =>
    handlerRuns(todo, batched).map((r) => [r.event, r.items.length, r.batched]);

  it('when consecutive messages share an event with a batch handler, then one call takes them together', () => {
    expect(shape([handled('b'), handled('b'), handled('b')])).toEqual([['b', 3, true]]);
  });

  it('when messages of an event without a batch handler follow each other, then each gets its own call', () => {
    expect(shape([handled('s'), handled('s')])).toEqual([
      ['s', 1, false],
      ['s', 1, false],
    ]);
  });

  it('when another event comes between them, then the batch handler is called once per run, in order', () => {
    const todo = [handled('b'), handled('b'), handled('s'), handled('b')];
    const runs = handlerRuns(todo, batched);
    expect(runs.map((r) => [r.event, r.items.length, r.batched])).toEqual([
      ['b', 2, true],
      ['s', 1, false],
      ['b', 1, true],
    ]);
    expect(runs.flatMap((r) => r.items)).toEqual(todo);
  });

  it('when one batch handler is named for two events, then their consecutive messages go together in any order', () => {
    const shared = () => undefined;
    const handlerOf = (event: string) =>
      event === 'x' || event === 'y' ? shared : event === 'b' ? batchHandler : undefined;
    const todo = [handled('x'), handled('y'), handled('x'), handled('b'), handled('y')];
    const runs = handlerRuns(todo, handlerOf);
    expect(runs.map((r) => [r.event, r.items.length, r.batched])).toEqual([
      ['x', 3, true],
      ['b', 1, true],
      ['y', 1, true],
    ]);
    expect(runs.flatMap((r) => r.items)).toEqual(todo);
  });
});
