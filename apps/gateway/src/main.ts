import { closeServer, listenServer, serverPort, stopOnSignals } from '@platform/http';
import { startTracing } from '@platform/observability';
import { loadConfig } from './config';
import { buildDeps } from './deps';
import { buildAdminServer, buildServer } from './server';

async function main() {
  const config = loadConfig();
  const deps = await buildDeps(config);
  // Off unless OTEL_TRACES_EXPORTER names an exporter (docs/tracing.md).
  const tracing = startTracing({ serviceName: 'gateway' });
  const server = await listenServer(buildServer(deps, tracing.tracer), config.GATEWAY_PORT, config.GATEWAY_HOST);
  // After the public port: an admin /health/ready that answers means partners can be served.
  const admin = await listenServer(buildAdminServer(deps), config.GATEWAY_ADMIN_PORT, config.GATEWAY_ADMIN_HOST);
  deps.logger.info({ port: serverPort(server), adminPort: serverPort(admin) }, 'listening');
  stopOnSignals(deps.logger, async () => {
    await closeServer(server);
    await closeServer(admin);
    await deps.close();
    await tracing.shutdown();
  });
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
