import { listenServer, onShutdown, serverPort } from '@platform/http';
import { buildServer } from './app';
import { loadConfig } from './config';
import { buildDeps } from './deps';

/** config -> deps (migrations included) -> server -> listen; graceful shutdown on signals. */
async function main() {
  const config = loadConfig();
  const deps = await buildDeps(config);
  const server = await listenServer(buildServer(deps), config.DOMAINS_PORT, config.DOMAINS_HOST);
  deps.start();
  deps.logger.info({ port: serverPort(server) }, 'listening');
  onShutdown(deps.logger, server, [() => deps.close()]);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
