import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AiAssistanceSchema,
  ReportRequestSchema,
  SandboxUploadSchema,
} from '../../../../../src/api/index.js';
import { call, type Harness, startHarness, tokenFor, v2, v4 } from './helpers.js';

let h: Harness;
let token: string;
let noFeatures: string;

beforeAll(async () => {
  h = await startHarness();
  token = await tokenFor(h.sim, 0);
  noFeatures = await tokenFor(h.sim, 1);
});
afterAll(() => h.sim.close());

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

describe('sandbox uploads', () => {
  const create = (filename: unknown, t = token) =>
    call(h.sim, 'POST', v4(h.sim, '/sandbox/uploads'), { token: t, body: { filename } });

  it('hands out a presigned URL that takes a PUT without a token, once', async () => {
    const res = await create('invoice.pdf');
    expect(res.status).toBe(200);
    const { upload_url, upload_fields } = SandboxUploadSchema.parse(res.body);
    expect(upload_fields).toBeUndefined();
    expect(upload_url.startsWith(`${h.sim.url}/_upload/`)).toBe(true);

    const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0, 1, 2, 255]);
    const put = await fetch(upload_url, {
      method: 'PUT',
      body: bytes,
      headers: { 'content-type': 'application/pdf' },
    });
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(h.sim.state.uploads.at(-1)).toMatchObject({
      filename: 'invoice.pdf',
      method: 'PUT',
      size: 8,
      sha256: sha256(bytes),
      authorizationSent: false,
      contentType: 'application/pdf',
    });
    const again = await fetch(upload_url, { method: 'PUT', body: bytes });
    expect(again.status).toBe(403);
    expect(await again.text()).toContain('<Code>AccessDenied</Code>');
  });

  it('records an Authorization header sent to the upload URL, and refuses expired or tampered URLs', async () => {
    const url1 = (await create('a.txt')).body.upload_url as string;
    await fetch(url1, { method: 'PUT', body: 'x', headers: { authorization: `Bearer ${token}` } });
    expect(h.sim.state.uploads.at(-1)?.authorizationSent).toBe(true);

    const url2 = (await create('b.txt')).body.upload_url as string;
    const tampered = url2.replace(/X-Sim-Signature=[0-9a-f]/, 'X-Sim-Signature=z');
    expect((await fetch(tampered, { method: 'PUT', body: 'x' })).status).toBe(403);
    h.clock.advance(h.sim.state.options.uploadUrlTtlMs);
    const expired = await fetch(url2, { method: 'PUT', body: 'x' });
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('expired');
    token = await tokenFor(h.sim, 0);
  });

  it('switches to the presigned form shape: multipart POST with the fields then the file', async () => {
    h.sim.state.options.uploadShape = 'form';
    try {
      const res = await create('sample.exe');
      const { upload_url, upload_fields } = SandboxUploadSchema.parse(res.body);
      expect(upload_url).toBe(`${h.sim.url}/_upload`);
      expect(upload_fields?.key).toContain('sample.exe');
      const bytes = new Uint8Array(4096).map((_, i) => i % 251);
      const form = new FormData();
      for (const [k, v] of Object.entries(upload_fields ?? {})) form.append(k, v);
      form.append('file', new Blob([bytes]), 'sample.exe');
      const post = await fetch(upload_url, { method: 'POST', body: form });
      expect(post.status).toBe(204);
      expect(h.sim.state.uploads.at(-1)).toMatchObject({
        method: 'POST',
        size: 4096,
        sha256: sha256(bytes),
        authorizationSent: false,
        fields: upload_fields,
      });

      const missing = await create('other.bin');
      const partial = new FormData();
      partial.append('key', missing.body.upload_fields.key);
      partial.append('x-amz-signature', missing.body.upload_fields['x-amz-signature']);
      partial.append('file', new Blob(['x']), 'other.bin');
      expect((await fetch(upload_url, { method: 'POST', body: partial })).status).toBe(403);
    } finally {
      h.sim.state.options.uploadShape = 'put';
    }
  });

  it('422s a missing filename and 403s an account without the sandbox feature', async () => {
    const bad = await create('');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'filename'], type: 'string_too_short' });
    const denied = await create('x.pdf', noFeatures);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FEATURE_NOT_ENABLED');
  });
});

describe('report requests', () => {
  const tenantRequests = () =>
    h.sim.state.reportRequests.filter((r) => r.tenantId === h.sim.keys[0]?.defaultTenantId);

  it('answers every status on the deprecated path, with a full ApiReport when completed', async () => {
    const statuses = new Set<string>();
    for (const r of tenantRequests()) {
      const res = await call(h.sim, 'GET', v4(h.sim, `/threat_flow/reports/requests/${r.uuid}`), { token });
      expect(res.status).toBe(200);
      const body = ReportRequestSchema.parse(res.body);
      statuses.add(body.status);
      if (body.status === 'completed') {
        expect(body.report?.related_activity_uids.length).toBeGreaterThan(0);
        expect(res.body.report).toHaveProperty('tenant_id');
        expect(res.body.report).toHaveProperty('subtitle');
      } else {
        expect(body.report).toBeNull();
      }
    }
    expect(statuses).toEqual(new Set(['processing', 'completed', 'error']));
  });

  it('404s the replacement endpoint until published, then answers its own shape', async () => {
    const done = tenantRequests().find((r) => r.status === 'completed');
    const path = v4(h.sim, `/threat_flow/intel/requests/${done?.uuid}`);
    const before = await call(h.sim, 'GET', path, { token });
    expect(before.status).toBe(404);
    h.sim.state.options.intelRequestsPublished = true;
    try {
      const after = await call(h.sim, 'GET', path, { token });
      expect(after.status).toBe(200);
      expect(after.body).toMatchObject({ id: done?.uuid, status: 'completed', error: null });
      expect(after.body.intel.id).toBe(done?.report?.id);
    } finally {
      h.sim.state.options.intelRequestsPublished = false;
    }
  });

  it('403s without the reports feature, 404s unknown ids, 422s non-uuids', async () => {
    const r = tenantRequests()[0];
    const denied = await call(h.sim, 'GET', v4(h.sim, `/threat_flow/reports/requests/${r?.uuid}`), {
      token: noFeatures,
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('FEATURE_NOT_ENABLED');
    const unknown = await call(
      h.sim,
      'GET',
      v4(h.sim, '/threat_flow/reports/requests/00000000-0000-4000-8000-000000000000'),
      { token },
    );
    expect(unknown.status).toBe(404);
    const bad = await call(h.sim, 'GET', v4(h.sim, '/threat_flow/reports/requests/42'), { token });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['path', 'request_info_id'], type: 'uuid_parsing' });
  });
});

describe('AI assistance (v2)', () => {
  it('answers for uids whose id contains slashes, left unescaped in the path', async () => {
    const tenantId = h.sim.keys[0]?.defaultTenantId;
    const event = h.sim.state.events.find(
      (e) => e.tenantId === tenantId && e.item.metadata.uid.split('/').length > 3,
    );
    const uid = event?.item.metadata.uid ?? '';
    const [index, source, ...rest] = uid.split('/');
    const res = await call(
      h.sim,
      'GET',
      v2(h.sim, `/activities/${index}/${source}/${rest.join('/')}/ai_assistance`),
      {
        token,
      },
    );
    expect(res.status).toBe(200);
    expect(AiAssistanceSchema.parse(res.body).activity_ai_assistance?.uid).toBe(uid);
  });

  it('has long multi-paragraph markdown answers among the seeded ones', () => {
    const long = [...h.sim.state.aiAssistance.values()].filter((a) => a.response.split('\n\n').length >= 4);
    expect(long.length).toBeGreaterThan(10);
    expect(long.some((a) => a.response.includes('**') && a.response.includes('<b>'))).toBe(true);
  });

  it('404s events of other tenants', async () => {
    const foreign = h.sim.state.events.find((e) => e.tenantId !== h.sim.keys[0]?.defaultTenantId);
    const res = await call(
      h.sim,
      'GET',
      v2(h.sim, `/activities/${foreign?.item.metadata.uid}/ai_assistance`),
      { token },
    );
    expect(res.status).toBe(404);
  });
});
