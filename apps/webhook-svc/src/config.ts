import { z } from 'zod';
import { env, parseEnv } from '@platform/config';

/** The only place this service reads process.env. */
export const configSchema = z.object({
  WEBHOOK_PORT: env.port(8085),
  WEBHOOK_HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: env.logLevel,
});
export type Config = z.infer<typeof configSchema>;
export const loadConfig = (source: NodeJS.ProcessEnv = process.env): Config => parseEnv(configSchema, source);
