import type { RequestListener } from 'node:http';
import { createServer } from 'node:http';

/** Serves the app on an ephemeral port and checks the health probes and the 404 envelope. */
export async function expectHealthyService(app: RequestListener): Promise<void> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    expect((await fetch(`${base}/health/ready`)).status).toBe(200);
    const missing = await fetch(`${base}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: expect.objectContaining({ code: 'ROUTE.NOT_FOUND', ns: 'ROUTE', status: 404 }) });
  } finally {
    server.close();
  }
}
