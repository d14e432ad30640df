import { onShutdown, serverPort } from '@platform/http';
import { loadConfig } from './config';
import { buildDeps } from './deps';
import { buildServer, startServer } from './server';

async function main() {
  const config = loadConfig();
  const deps = await buildDeps(config);
  const server = await startServer(buildServer(deps), config.GATEWAY_PORT, config.GATEWAY_HOST);
  deps.logger.info({ port: serverPort(server) }, 'listening');
  onShutdown(deps.logger, server, [() => deps.close()]);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
