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

const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "250ms", "5s", "30m", "2h", "1d" or plain milliseconds; undefined when malformed. */
function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  return m ? Math.round(Number(m[1]) * UNIT_MS[m[2] ?? 'ms']) : undefined;
}

/** A comma-separated list of durations, e.g. a retry schedule "0,5s,5m,30m,2h". */
const durationList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const values = text.split(',').map(parseDuration);
      if (values.length === 0 || values.some((v) => v === undefined)) {
        ctx.addIssue({ code: 'custom', message: 'must be durations separated by commas, e.g. 0,5s,5m,2h' });
        return z.NEVER;
      }
      return values as number[];
    });

/** Shared fragments; each service composes its own schema from them in its config.ts. */
export const env = {
  port,
  bool,
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  databaseUrl: z.string().url().default('postgres://postgres@127.0.0.1:5432/postgres'),
  /** One node's URL, or the nodes of one cluster separated by commas (libs/messaging tries the next when one fails). */
  amqpUrl: z
    .string()
    .refine((v) => v.split(',').every((u) => URL.canParse(u.trim())), {
      message: 'must be an AMQP URL, or several (the nodes of one cluster) separated by commas',
    })
    .default('amqp://guest:guest@127.0.0.1:5672'),
  eventsExchange: z.string().min(1).default('partner.events'),
  /** PEM; literal "\n" sequences are accepted so keys fit in one env line. */
  pem: z
    .string()
    .min(1)
    .transform((v) => v.replace(/\\n/g, '\n')),
  durationMs: (fallback: number) => z.coerce.number().int().min(1).default(fallback),
  durationList,
};
