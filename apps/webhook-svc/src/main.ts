import { listen, onShutdown, serverPort } from '@platform/http';
import { createLogger } from '@platform/observability';
import { buildApp } from './app';
import { loadConfig } from './config';

async function main() {
  const config = loadConfig();
  const logger = createLogger('webhook-svc', config.LOG_LEVEL);
  const server = await listen(buildApp(logger), config.WEBHOOK_PORT, config.WEBHOOK_HOST);
  logger.info({ port: serverPort(server) }, 'listening');
  onShutdown(logger, server, []);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
