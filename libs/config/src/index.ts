import { z } from 'zod';

export class ConfigError extends Error {}

/** Parses the environment once at boot; a bad or missing variable stops the process with a readable list. */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

/** Shared fragments; each service composes its own schema from them in its config.ts. */
export const env = {
  port,
  bool,
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  databaseUrl: z.string().url().default('postgres://postgres@127.0.0.1:5432/postgres'),
  amqpUrl: z.string().url().default('amqp://guest:guest@127.0.0.1:5672'),
  eventsExchange: z.string().min(1).default('partner.events'),
  /** PEM; literal "\n" sequences are accepted so keys fit in one env line. */
  pem: z
    .string()
    .min(1)
    .transform((v) => v.replace(/\\n/g, '\n')),
  durationMs: (fallback: number) => z.coerce.number().int().min(1).default(fallback),
};
