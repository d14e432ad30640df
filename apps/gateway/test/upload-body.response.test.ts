import { z } from 'zod';
import { defineRoute, uploadedFile, type RouteSpec } from '@platform/contracts';
import { bearer, startGateway, startSuite, TEST_ROUTES, type Gateway, type Suite } from './support/harness';

const FILE_LIMIT = 2 * 1024 * 1024;

/** An upload route (as POST /portal/domains/imports declares one): multipart, its file up to 2 MiB. */
const UPLOAD: RouteSpec = defineRoute({
  operationId: 'uploadThing',
  method: 'post',
  path: '/portal/things/uploads',
  service: 'domains',
  permission: 'domains:write',
  summary: 'Upload a thing',
  tag: 'Things',
  multipart: { file: 'asset', maxFileBytes: FILE_LIMIT },
  body: z.object({ asset: uploadedFile() }),
  response: z.object({ result: z.record(z.string(), z.unknown()) }),
  errors: [],
});

const form = (bytes: number) => {
  const data = new FormData();
  data.set('asset', new Blob([new Uint8Array(bytes).fill(0x61)]), 'file.csv');
  return data;
};

describe('request body: a route that declares a multipart upload', () => {
  let suite: Suite;
  let gateway: Gateway;
  let key: string;

  beforeAll(async () => {
    suite = await startSuite();
    // BODY_LIMIT_BYTES stays 1 MiB: the upload's own limit is the route's.
    gateway = await startGateway(suite.env, [...TEST_ROUTES, UPLOAD]);
    key = (await suite.key(await suite.partner())).key;
  });
  afterAll(async () => {
    await gateway?.close();
    await suite?.close();
  });

  const post = (path: string, body: FormData | string, headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}${path}`, { method: 'POST', headers: bearer(key, headers), body });

  it('when a 1.5 MB multipart form is posted to the upload route, then the service gets it whole, as multipart', async () => {
    const res = await post('/portal/things/uploads', form(1.5 * 1024 * 1024));
    expect(res.status).toBe(201);
    const { result } = (await res.json()) as { result: { contentType: string; body: string } };
    expect(result.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(result.body.length).toBeGreaterThan(1.5 * 1024 * 1024);
  });

  it('when an upload carries an Idempotency-Key, then the service gets the key but no fingerprint of the bytes (it fingerprints the parsed form)', async () => {
    const res = await post('/portal/things/uploads', form(10), { 'idempotency-key': 'upload-1' });
    expect(res.status).toBe(201);
    const { result } = (await res.json()) as { result: { idempotencyKey: string; fingerprint: string | null } };
    expect(result).toMatchObject({ idempotencyKey: 'upload-1', fingerprint: null });
  });

  it('when the upload route gets JSON, or a JSON route a multipart form, then 415', async () => {
    const json = await post('/portal/things/uploads', '{}', { 'content-type': 'application/json' });
    expect(json.status).toBe(415);
    expect(((await json.json()) as { error: { code: string } }).error.code).toBe('REQUEST.UNSUPPORTED_MEDIA_TYPE');
    const multipart = await post('/portal/things', form(10));
    expect(multipart.status).toBe(415);
  });

  it('when the form is larger than the file limit and its envelope, then 413 REQUEST.TOO_LARGE', async () => {
    const res = await post('/portal/things/uploads', form(FILE_LIMIT + 128 * 1024));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('REQUEST.TOO_LARGE');
  });
});
