/**
 * Where to tell the admin that the connection succeeded: the response_url of their `/vigil connect`, kept
 * beside the link for its lifetime. The page itself runs outside Slack and has no other way back.
 */
import { z } from 'zod';
import type { Store } from '../../../store/index.js';

const NoticeSchema = z.object({ responseUrl: z.string().url() });
export type ConnectNotice = z.infer<typeof NoticeSchema>;

const NAMESPACE = 'connect-notice';

export async function saveConnectNotice(
  store: Store,
  token: string,
  notice: ConnectNotice,
  ttlMs: number,
): Promise<void> {
  await store.namespace(NAMESPACE).set(token, notice, Math.max(1, ttlMs));
}

export async function takeConnectNotice(store: Store, token: string): Promise<ConnectNotice | undefined> {
  const ns = store.namespace(NAMESPACE);
  const parsed = NoticeSchema.safeParse(await ns.get(token));
  await ns.delete(token);
  return parsed.success ? parsed.data : undefined;
}
