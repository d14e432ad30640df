import { randomBytes } from 'node:crypto';
import { startService } from '@platform/service';
import { expectChassisService } from '@platform/testing';
import { webhookService } from '../src/service';

describe('webhook-svc on the chassis', () => {
  it('when started, then it migrates its schema for its own role, answers live, ready and metrics, and unknown paths get the 404 envelope', () =>
    expectChassisService(webhookService, { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64') }));

  it('when WEBHOOK_SECRET_KEY is missing or not 32 bytes, then it refuses to start and says so', async () => {
    const env = { INTERNAL_JWT_PUBLIC_KEY: 'x' };
    await expect(startService(webhookService, { env })).rejects.toThrow(/WEBHOOK_SECRET_KEY: is required/);
    await expect(
      startService(webhookService, { env: { ...env, WEBHOOK_SECRET_KEY: randomBytes(16).toString('base64') } }),
    ).rejects.toThrow(/WEBHOOK_SECRET_KEY: must be 32 bytes/);
    await expect(
      startService(webhookService, { env: { ...env, WEBHOOK_SECRET_KEY: randomBytes(33).toString('base64') } }),
    ).rejects.toThrow(/WEBHOOK_SECRET_KEY: must be 32 bytes/);
  });
});
