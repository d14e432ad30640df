/** Outbound HTTP to URLs partners control (webhooks, customer sites), guarded against SSRF. */
export * from './address';
export * from './client';
