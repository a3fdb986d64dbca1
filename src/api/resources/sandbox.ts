/**
 * Sandbox uploads (v4). The endpoint is unpublished; it answers `{upload_url}` (PUT the bytes) or, in one
 * published revision, `{upload_url, upload_fields}` (multipart POST). 401/403 there mean the sandbox is not
 * enabled for the account.
 */
import { z } from 'zod';
import { ValidationError } from '../core/errors.js';
import type { ResourceSession } from '../core/resource-session.js';
import {
  checkSandboxFile,
  type SandboxFile,
  type UploadDeps,
  type UploadResult,
  uploadToPresignedUrl,
} from './sandbox-upload.js';

/** @internal */
export const SandboxUploadSchema = z.object({
  upload_url: z.string().url(),
  upload_fields: z.record(z.string(), z.string()).nullish(),
});
type SandboxUpload = z.infer<typeof SandboxUploadSchema>;

export interface SandboxApi {
  createSandboxUpload(filename: string): Promise<SandboxUpload>;
  /** Creates the presigned URL, then sends the file there (without any API credential). */
  uploadToSandbox(file: SandboxFile): Promise<UploadResult>;
}

export function sandboxResource({ call, v4 }: ResourceSession, upload: UploadDeps): SandboxApi {
  const createSandboxUpload = async (filename: string) => {
    if (typeof filename !== 'string' || filename.trim() === '' || filename.length > 255) {
      throw new ValidationError('A file name (1–255 characters) is required', [
        { field: 'filename', message: 'must be 1–255 characters' },
      ]);
    }
    return (
      await call({
        method: 'POST',
        path: `${v4}/sandbox/uploads`,
        body: { filename },
        tier: 'ordinary',
        idempotent: false,
        auth: 'token',
        feature: 'sandbox',
        schema: SandboxUploadSchema,
      })
    ).data;
  };
  return {
    createSandboxUpload,
    async uploadToSandbox(file) {
      checkSandboxFile(file);
      const target = await createSandboxUpload(file.filename);
      return uploadToPresignedUrl(
        upload,
        { upload_url: target.upload_url, upload_fields: target.upload_fields ?? undefined },
        file,
      );
    },
  };
}
