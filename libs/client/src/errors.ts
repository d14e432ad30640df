import type { ErrorCode } from '@platform/contracts';

/** The contract's error envelope: `{"error": {"code", "ns", "message", "status", "data"?}}`. */
interface ErrorEnvelope {
  error: { code: string; message: string; status?: number; data?: Record<string, unknown> };
}

const isEnvelope = (body: unknown): body is ErrorEnvelope => {
  const error = (body as { error?: unknown } | null)?.error as Record<string, unknown> | undefined;
  return (
    typeof error === 'object' && error !== null && typeof error.code === 'string' && typeof error.message === 'string'
  );
};

/** Code of an answer that did not carry the envelope (a proxy's page, Node's bare 408). */
export const NON_ENVELOPE_CODE = 'HTTP.ERROR';

/** A non-2xx answer of the platform: its status and the envelope's code, message and data (as `details`). */
export class PlatformApiError extends Error {
  override readonly name = 'PlatformApiError';
  readonly status: number;
  /** e.g. VALIDATION.INVALID, DOMAIN.NOT_FOUND, RATE.LIMITED; see x-error-catalogue in /openapi.json. */
  readonly code: ErrorCode | (string & {});
  /** The envelope's `data`: e.g. `issues` of VALIDATION.INVALID, `required` of AUTH.FORBIDDEN. */
  readonly details: Record<string, unknown> | undefined;
  /** The answer, for its headers (Retry-After, RateLimit). */
  readonly response: Response;

  constructor(response: Response, body: unknown) {
    const envelope = isEnvelope(body) ? body.error : undefined;
    const text = typeof body === 'string' && body.length > 0 ? body.slice(0, 200) : undefined;
    super(envelope?.message ?? text ?? `HTTP ${response.status} ${response.statusText}`.trim());
    this.status = response.status;
    this.code = envelope?.code ?? NON_ENVELOPE_CODE;
    this.details = envelope?.data;
    this.response = response;
  }
}
