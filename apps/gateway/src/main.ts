import { closeServer, listenServer, serverPort, stopOnSignals } from '@platform/http';
import { loadConfig } from './config';
import { buildDeps } from './deps';
import { buildAdminServer, buildServer } from './server';

async function main() {
  const config = loadConfig();
  const deps = await buildDeps(config);
  const server = await listenServer(buildServer(deps), config.GATEWAY_PORT, config.GATEWAY_HOST);
  // After the public port: an admin /health/ready that answers means partners can be served.
  const admin = await listenServer(buildAdminServer(deps), config.GATEWAY_ADMIN_PORT, config.GATEWAY_ADMIN_HOST);
  deps.logger.info({ port: serverPort(server), adminPort: serverPort(admin) }, 'listening');
  stopOnSignals(deps.logger, async () => {
    await closeServer(server);
    await closeServer(admin);
    await deps.close();
  });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
