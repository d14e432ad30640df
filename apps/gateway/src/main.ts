import type { Server } from 'node:http';
import { onShutdown, serverPort } from '@platform/http';
import { loadConfig } from './config';
import { buildDeps } from './deps';
import { buildAdminServer, buildServer, startServer } from './server';

async function main() {
  const config = loadConfig();
  const deps = await buildDeps(config);
  const server = await startServer(buildServer(deps), config.GATEWAY_PORT, config.GATEWAY_HOST);
  // After the public port: an admin /health/ready that answers means partners can be served.
  const admin = await startServer(buildAdminServer(deps), config.GATEWAY_ADMIN_PORT, config.GATEWAY_ADMIN_HOST);
  deps.logger.info({ port: serverPort(server), adminPort: serverPort(admin) }, 'listening');
  onShutdown(deps.logger, server, [() => close(admin), () => deps.close()]);
}

function close(server: Server): Promise<void> {
  server.closeIdleConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
