/**
 * A backend's keyv: records as Vigil writes them, under keys as given (no prefix), every error thrown. Apart
 * from store.ts so that keyv itself loads only with a backend, after Vigil listens.
 */
import { Keyv, type KeyvStoreAdapter } from 'keyv';
import { deserializeRecord, serializeRecord } from './store.js';

export function recordKeyv(adapter: KeyvStoreAdapter): Keyv {
  return new Keyv({
    store: adapter,
    namespace: '',
    useKeyPrefix: false,
    throwOnErrors: true,
    serialize: serializeRecord,
    deserialize: deserializeRecord,
  });
}
