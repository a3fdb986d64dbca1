/**
 * `rotate-key`: re-seals every sealed record with VIGIL_ENCRYPTION_KEY (or its file), opening what is not yet
 * re-sealed with VIGIL_ENCRYPTION_KEY_OLD. Vigil may keep running meanwhile with the same variables. Resumable:
 * run it again after an interruption and it continues. Needs only the store and the keys.
 */

import type { Logger } from '../kernel/logger.js';
import { loadSealer, openStore, resealAll } from '../store/index.js';
import { loadKeyConfig } from './config.js';

export async function rotateKey(env: Record<string, string | undefined>, logger: Logger): Promise<number> {
  const config = loadKeyConfig(env);
  const store = await openStore(config.store.url, {
    logger,
    ...(config.store.instanceName ? { instanceName: config.store.instanceName } : {}),
  });
  try {
    const sealer = await loadSealer({ ...config.encryption, dataDir: store.dataDir, logger });
    logger.info('re-sealing every sealed record', { keyId: sealer.keyId });
    const report = await resealAll(store, sealer, logger);
    if (report.stale > 0) {
      logger.warn(
        'rotation finished, but some values are not sealed with the new key: check that every instance runs with it as VIGIL_ENCRYPTION_KEY, then run rotate-key again',
        { ...report },
      );
      return 1;
    }
    logger.info('rotation complete: every sealed record uses the new key; VIGIL_ENCRYPTION_KEY_OLD can go', {
      ...report,
    });
    return 0;
  } finally {
    await store.close();
  }
}
