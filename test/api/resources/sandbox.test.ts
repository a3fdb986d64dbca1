/**
 * Sandbox uploads: the presigned URL lives on another host, which must never see the API token.
 * The API is a recording server on 127.0.0.1, the storage host a second one on `localhost` (another host
 * name and port); then both shapes end to end against the simulator.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimApi } from '../../../packages/playground/src/sim/api/index.js';
import { createApiClient } from '../../../src/api/client.js';
import { ForbiddenError } from '../../../src/api/index.js';
import { testClient } from '../support/client.js';
import { contractProblems, fromRecorded } from '../support/openapi.js';
import { json, startServer, type TestServer, tokenRoutes } from '../support/server.js';

let api: TestServer;
let storage: TestServer;
let uploadShape: 'put' | 'form';

beforeEach(async () => {
  storage = await startServer((_req, res) => {
    res.writeHead(204);
    res.end();
  });
  const storageUrl = storage.url.replace('127.0.0.1', 'localhost');
  uploadShape = 'put';
  api = await startServer((req, res) => {
    if (tokenRoutes(req, res)) return;
    if (req.path === '/firework/v4/sandbox/uploads') {
      return uploadShape === 'put'
        ? json(res, 200, { upload_url: `${storageUrl}/bucket/obj-1?X-Amz-Signature=sig` })
        : json(res, 200, {
            upload_url: `${storageUrl}/bucket`,
            upload_fields: { key: 'uploads/obj-1', policy: 'cG9saWN5', 'x-amz-signature': 'sig' },
          });
    }
    return json(res, 404, {});
  });
});
afterEach(async () => {
  // Every v4 request the client sent must be acceptable to the public OpenAPI document.
  expect(contractProblems(api.requests.map(fromRecorded))).toEqual([]);
  await api.close();
  await storage.close();
});

const bytes = Buffer.from('MZ\x90\x00 pretend executable \r\n--boundary-lookalike\r\n', 'latin1');

describe('uploadToSandbox to another host', () => {
  it('PUTs the bytes for {upload_url} with no Authorization and no Cookie', async () => {
    const { session } = testClient(api.url);
    const result = await session.uploadToSandbox({
      filename: 'sample.exe',
      bytes,
      contentType: 'application/x-msdownload',
    });
    expect(result).toMatchObject({ method: 'PUT', status: 204 });
    expect(result.host).toMatch(/^localhost:\d+$/);
    expect(api.calls()[0]?.json).toEqual({ filename: 'sample.exe' });
    const [put] = storage.requests;
    expect(put?.method).toBe('PUT');
    expect(put?.path).toBe('/bucket/obj-1');
    expect(put?.query.get('X-Amz-Signature')).toBe('sig');
    expect(put?.body.equals(bytes)).toBe(true);
    expect(put?.headers['content-type']).toBe('application/x-msdownload');
    expect(put?.headers.authorization).toBeUndefined();
    expect(put?.headers.cookie).toBeUndefined();
    // The API did get a bearer token; the storage host never saw any of the tokens.
    const tokens = api.requests.map((r) => r.headers.authorization).filter((a) => a?.startsWith('Bearer '));
    expect(tokens.length).toBeGreaterThan(0);
    const raw = JSON.stringify(storage.requests.map((r) => r.headers));
    for (const t of tokens) expect(raw).not.toContain((t as string).slice(7));
  });

  it('POSTs a multipart form with the fields first, then the file, for {upload_url, upload_fields}', async () => {
    uploadShape = 'form';
    const { session } = testClient(api.url);
    await session.uploadToSandbox({
      filename: 'we"ird\r\nname.exe',
      bytes,
      contentType: 'application/octet-stream',
    });
    const [post] = storage.requests;
    expect(post?.method).toBe('POST');
    expect(post?.headers.authorization).toBeUndefined();
    const form = await new Request('http://x/', {
      method: 'POST',
      headers: { 'content-type': post?.headers['content-type'] as string },
      body: post?.body as Buffer,
    }).formData();
    const names = [...form.keys()];
    expect(names).toEqual(['key', 'policy', 'x-amz-signature', 'file']);
    expect(form.get('key')).toBe('uploads/obj-1');
    const file = form.get('file') as File;
    expect(Buffer.from(await file.arrayBuffer()).equals(bytes)).toBe(true);
    // Quotes and line breaks were escaped, so the name could not break out of its header: it round-trips.
    expect(file.name).toBe('we"ird\r\nname.exe');
  });

  it('streams a file without buffering it first', async () => {
    const { session } = testClient(api.url);
    const chunks = [Buffer.from('part-1;'), Buffer.from('part-2;'), Buffer.from('part-3')];
    await session.uploadToSandbox({
      filename: 's.txt',
      stream: Readable.from(chunks),
      contentType: 'text/plain',
    });
    expect(storage.requests[0]?.body.toString()).toBe('part-1;part-2;part-3');
  });

  it.each(['put', 'form'] as const)(
    'streams a large file of known length (%s): Content-Length set, bytes intact, read lazily',
    async (shape) => {
      uploadShape = shape;
      const { session } = testClient(api.url);
      const chunk = 64 * 1024;
      const count = 64; // 4 MiB, produced on demand
      const hash = createHash('sha256');
      let produced = 0;
      async function* source() {
        for (let i = 0; i < count; i++) {
          const c = Buffer.alloc(chunk, i % 251);
          hash.update(c);
          produced++;
          yield c;
        }
      }
      const res = await session.uploadToSandbox({
        filename: 'big.bin',
        stream: source(),
        length: chunk * count,
      });
      expect(res.method).toBe(shape === 'put' ? 'PUT' : 'POST');
      expect(produced).toBe(count);
      const [req] = storage.requests;
      if (!req) throw new Error('no upload');
      expect(Number(req.headers['content-length'])).toBe(req.body.length);
      const received =
        shape === 'put'
          ? req.body
          : (() => {
              const start = req.body.indexOf('\r\n\r\n', req.body.indexOf('name="file"')) + 4;
              return req.body.subarray(start, start + chunk * count);
            })();
      expect(received.length).toBe(chunk * count);
      expect(createHash('sha256').update(received).digest('hex')).toBe(hash.digest('hex'));
    },
  );

  it('refuses a negative or fractional stream length before any call', async () => {
    const { session } = testClient(api.url);
    await expect(
      session.uploadToSandbox({ filename: 'a', stream: Readable.from([bytes]), length: -1 }),
    ).rejects.toThrow(/length/);
    expect(api.calls()).toHaveLength(0);
  });

  it('refuses a plain-http upload URL to a remote host', async () => {
    api.handle((req, res) => {
      if (tokenRoutes(req, res)) return;
      json(res, 200, { upload_url: 'http://storage.example.com/bucket/x' });
    });
    const { session } = testClient(api.url);
    await expect(session.uploadToSandbox({ filename: 'a', bytes })).rejects.toThrow(/https/);
  });
});

describe('uploadToSandbox against the simulator', () => {
  it.each(['put', 'form'] as const)('completes the %s shape without sending Authorization', async (shape) => {
    const sim = await startSimApi();
    try {
      sim.state.options.uploadShape = shape;
      const key = sim.keys.find((k) => k.features.sandbox);
      if (!key) throw new Error('no sandbox key');
      const client = createApiClient({ baseUrl: sim.url, allowedHosts: [] });
      const res = await client
        .session({ apiKey: key.apiKey })
        .uploadToSandbox({ filename: 'doc.pdf', bytes, contentType: 'application/pdf' });
      await client.close();
      expect(res.method).toBe(shape === 'put' ? 'PUT' : 'POST');
      const [upload] = sim.state.uploads;
      expect(upload).toMatchObject({ filename: 'doc.pdf', authorizationSent: false, size: bytes.length });
      expect(upload?.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));

      const limited = sim.keys.find((k) => !k.features.sandbox);
      if (!limited) throw new Error('no key without sandbox');
      const other = createApiClient({ baseUrl: sim.url, allowedHosts: [] });
      const err = await other
        .session({ apiKey: limited.apiKey })
        .uploadToSandbox({ filename: 'x', bytes })
        .catch((e: unknown) => e);
      await other.close();
      expect(err).toBeInstanceOf(ForbiddenError);
      expect((err as ForbiddenError).message).toMatch(/the sandbox is not enabled for this account/i);
      expect((err as ForbiddenError).hint).toMatch(/sandbox is not enabled for this account/);
    } finally {
      await sim.close();
    }
  });
});
