/**
 * The web pages' own request body reader. Forms are small: the body is refused as soon as it passes the cap
 * (declared or streamed), before it is buffered. How long a body may take to arrive is bounded by the
 * server for every route (see limits.ts), which ends the stream this reader is waiting on.
 */
import type { IncomingMessage } from 'node:http';
import { VigilError } from '../kernel/errors.js';

export class FormTooLargeError extends VigilError {
  constructor(readonly limitBytes: number) {
    super(`The form is larger than ${limitBytes} bytes.`, 'Submit only the fields the page asks for.');
  }
}

export async function readBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) throw new FormTooLargeError(limitBytes);
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    received += buf.length;
    if (received > limitBytes) throw new FormTooLargeError(limitBytes);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}
