/**
 * Sandbox uploads. `POST …/v4/sandbox/uploads {filename}` hands out a presigned URL on the simulator itself:
 * - shape 'put' (default): `{upload_url}` → `PUT /_upload/<id>?X-Sim-Expires=…&X-Sim-Signature=…` with the bytes;
 * - shape 'form': `{upload_url, upload_fields}` → multipart `POST /_upload` with the fields, then `file`.
 * The upload endpoints are presigned: they need no token, answer S3-like (200 + ETag / 204, XML errors), and
 * record in `state.uploads` whether an Authorization header was sent (it never should be). URLs are single-use
 * and expire after `options.uploadUrlTtlMs`.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { requireFeature, requireSession } from '../auth.js';
import { type Handler, headerValue, json, type RouteContext, type SimResponse } from '../http.js';
import type { SandboxUploadBody } from '../requests.js';
import type { SimPendingUpload } from '../types.js';

const SECRET = randomBytes(16);
const sign = (id: string, expires: number): string =>
  createHmac('sha256', SECRET).update(`${id}:${expires}`).digest('hex');

const s3Error = (status: number, code: string, message: string): SimResponse => ({
  status,
  headers: { 'content-type': 'application/xml' },
  raw: `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
});

export const createUpload: Handler = (ctx) => {
  const session = requireSession(ctx);
  requireFeature(session, 'sandbox');
  const { filename } = ctx.input.body as SandboxUploadBody;
  const id = randomBytes(12).toString('hex');
  const expiresAt = ctx.clock.now() + ctx.state.options.uploadUrlTtlMs;
  const expires = Math.floor(expiresAt / 1000);
  const signature = sign(id, expires);
  const form = ctx.state.options.uploadShape === 'form';
  const fields = form
    ? {
        key: `sandbox/${session.tenantId}/${id}/${filename}`,
        'x-amz-algorithm': 'AWS4-HMAC-SHA256',
        'x-amz-credential': `SIMKEY/${new Date(ctx.clock.now()).toISOString().slice(0, 10).replace(/-/g, '')}/us-east-1/s3/aws4_request`,
        'x-amz-date': `${expires}`,
        policy: Buffer.from(JSON.stringify({ expiration: new Date(expiresAt).toISOString(), id })).toString(
          'base64',
        ),
        'x-amz-signature': signature,
      }
    : null;
  const pending: SimPendingUpload = { id, tenantId: session.tenantId, filename, expiresAt, fields };
  ctx.state.pendingUploads.set(id, pending);
  return fields
    ? json(200, { upload_url: `${ctx.baseUrl}/_upload`, upload_fields: fields })
    : json(200, {
        upload_url: `${ctx.baseUrl}/_upload/${id}?X-Sim-Expires=${expires}&X-Sim-Signature=${signature}`,
      });
};

function claim(ctx: RouteContext, id: string, signature: string | undefined): SimPendingUpload | SimResponse {
  const pending = ctx.state.pendingUploads.get(id);
  if (!pending) return s3Error(403, 'AccessDenied', 'Unknown or already used upload URL');
  if (!signature || signature !== sign(id, Math.floor(pending.expiresAt / 1000))) {
    return s3Error(403, 'SignatureDoesNotMatch', 'The request signature does not match');
  }
  if (ctx.clock.now() >= pending.expiresAt) return s3Error(403, 'AccessDenied', 'Request has expired');
  return pending;
}

function record(
  ctx: RouteContext,
  pending: SimPendingUpload,
  method: 'PUT' | 'POST',
  bytes: Buffer,
  contentType: string | null,
  fields: Record<string, string>,
) {
  ctx.state.pendingUploads.delete(pending.id);
  ctx.state.uploads.push({
    id: pending.id,
    tenantId: pending.tenantId,
    filename: pending.filename,
    method,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    contentType,
    authorizationSent: headerValue(ctx, 'authorization') !== undefined,
    fields,
    at: ctx.clock.now(),
  });
}

export const putUpload: Handler = (ctx) => {
  const id = ctx.params[0] ?? '';
  const claimed = claim(ctx, id, ctx.query.get('X-Sim-Signature') ?? undefined);
  if ('status' in claimed) return claimed;
  record(ctx, claimed, 'PUT', ctx.rawBody, headerValue(ctx, 'content-type') ?? null, {});
  const etag = `"${createHash('md5').update(ctx.rawBody).digest('hex')}"`;
  return { status: 200, headers: { etag }, raw: '' };
};

export const postUpload: Handler = async (ctx) => {
  const contentType = headerValue(ctx, 'content-type') ?? '';
  if (!contentType.startsWith('multipart/form-data')) {
    return s3Error(
      412,
      'PreconditionFailed',
      'Bucket POST must be of the enclosure-type multipart/form-data',
    );
  }
  let form: FormData;
  try {
    form = await new Request('http://sim.local/_upload', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: ctx.rawBody,
    }).formData();
  } catch {
    return s3Error(
      400,
      'MalformedPOSTRequest',
      'The body of your POST request is not well-formed multipart/form-data',
    );
  }
  const fields: Record<string, string> = {};
  let file: Blob | undefined;
  let fileSeen = false;
  for (const [name, value] of form.entries()) {
    if (name === 'file') {
      fileSeen = true;
      if (typeof value !== 'string') file = value;
    } else if (typeof value === 'string') {
      // S3 ignores fields after the file.
      if (!fileSeen) fields[name] = value;
    }
  }
  const id = /^sandbox\/\d+\/([0-9a-f]+)\//.exec(fields.key ?? '')?.[1] ?? '';
  const claimed = claim(ctx, id, fields['x-amz-signature']);
  if ('status' in claimed) return claimed;
  const missing = Object.entries(claimed.fields ?? {}).filter(([k, v]) => fields[k] !== v);
  if (missing.length > 0) {
    return s3Error(
      403,
      'AccessDenied',
      `Invalid according to Policy: field ${missing[0]?.[0]} missing or altered`,
    );
  }
  if (!file) return s3Error(400, 'InvalidArgument', 'POST requires exactly one file upload per request');
  const bytes = Buffer.from(await file.arrayBuffer());
  record(ctx, claimed, 'POST', bytes, file.type || null, fields);
  return { status: 204, raw: '' };
};
