/** What a test sees of an HTTP answer. */
export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions navigate arbitrary JSON
  text: string;
}

export interface CallOptions {
  /** Sent as `Authorization: Bearer <token>` (an API key or an internal token). */
  token?: string;
  /** An object is sent as JSON; a string as it is (Content-Type application/json unless headers say otherwise). */
  body?: unknown;
  headers?: Record<string, string>;
}

/** The act step of a test: sends the request and returns the raw answer, whatever its status. */
export async function act(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse> {
  const { token, body, headers = {} } = options;
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** The arrange step: the same request, but a non-2xx answer throws (setting up data must not fail silently). */
export async function arrange(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse> {
  const res = await act(baseUrl, method, path, options);
  if (res.status < 200 || res.status >= 300)
    throw new Error(`arrange ${method} ${path} answered ${res.status}: ${res.text.slice(0, 300)}`);
  return res;
}

/** The contract's error envelope with a given code and status, for toEqual. */
export const envelope = (code: string, status: number) => ({
  error: expect.objectContaining({ code, ns: code.split('.')[0], status, message: expect.any(String) }),
});
