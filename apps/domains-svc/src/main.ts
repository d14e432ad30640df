import { listen, onShutdown, serverPort } from '@platform/http';
import { buildApp } from './app';
import { loadConfig } from './config';
import { buildDeps } from './deps';

/** config -> deps (migrations included) -> app -> listen; graceful shutdown on signals. */
async function main() {
  const config = loadConfig();
  const deps = await buildDeps(config);
  const server = await listen(buildApp(deps), config.DOMAINS_PORT, config.DOMAINS_HOST);
  deps.start();
  deps.logger.info({ port: serverPort(server) }, 'listening');
  onShutdown(deps.logger, server, [() => deps.close()]);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
