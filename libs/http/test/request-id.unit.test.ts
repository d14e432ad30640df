import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestIdOf } from '../src';

/** A request with the given x-request-id, and an answer that keeps the headers set on it. */
function exchange(incoming: string | string[] | undefined) {
  const req = { headers: incoming === undefined ? {} : { 'x-request-id': incoming } } as unknown as IncomingMessage;
  const set = new Map<string, unknown>();
  const res = { setHeader: (name: string, value: unknown) => set.set(name, value) } as unknown as ServerResponse;
  return { id: requestIdOf(req, res), echoed: set.get('x-request-id') };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the request id rule (gateway and every service)', () => {
  it.each(['trace-abc-123', 'a', 'svc:req.42_x', 'x'.repeat(128)])(
    'when the caller sends the well-formed id %s, then it is kept and echoed',
    (incoming) => {
      expect(exchange(incoming)).toEqual({ id: incoming, echoed: incoming });
    },
  );

  it.each([
    ['none', undefined],
    ['an empty one', ''],
    ['one with spaces', 'bad id with spaces'],
    ['one over 128 characters', 'x'.repeat(129)],
    ['one with a line break', 'a\nb'],
    ['two of them', ['a', 'b']],
  ])('when the caller sends %s, then a new UUID is made and echoed', (_what, incoming) => {
    const { id, echoed } = exchange(incoming);
    expect(id).toMatch(UUID);
    expect(echoed).toBe(id);
  });
});
