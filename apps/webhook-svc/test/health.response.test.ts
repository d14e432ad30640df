import { listen, serverPort } from '@platform/http';
import { createLogger } from '@platform/observability';
import { buildApp } from '../src/app';

describe('webhook-svc health', () => {
  it('when probed, then it answers live and ready, and unknown paths get the 404 envelope', async () => {
    const server = await listen(buildApp(createLogger('test', 'silent')), 0);
    const base = `http://127.0.0.1:${serverPort(server)}`;
    try {
      expect((await fetch(`${base}/health/live`)).status).toBe(200);
      expect((await fetch(`${base}/health/ready`)).status).toBe(200);
      const missing = await fetch(`${base}/nope`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toEqual({ error: expect.objectContaining({ code: 'ROUTE.NOT_FOUND', ns: 'ROUTE', status: 404 }) });
    } finally {
      server.close();
    }
  });
});
