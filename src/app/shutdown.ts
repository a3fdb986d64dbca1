/** Shutdown in order: stop intake and the schedulers, drain in-flight work, then close the API pool and store. */
import type { Server } from 'node:http';
import { closeServer } from '../web/server.js';
import type { BackgroundWork } from './background.js';
import type { SlackApp } from './bolt-app.js';
import type { ServiceBase } from './services.js';

const DRAIN_MS = 7_000;

/** The stop function of a running Vigil: idempotent, every call awaits the same shutdown. */
export function shutdownOf(
  core: Pick<ServiceBase, 'logger' | 'tracker' | 'monitoring' | 'pool' | 'outbound' | 'store'>,
  parts: { server: Server; slack: SlackApp; background: BackgroundWork },
): () => Promise<void> {
  const { logger } = core;
  const { server, slack, background } = parts;
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= (async () => {
      logger.info('vigil stopping');
      const closing = closeServer(server);
      await slack.app.stop().catch((err: unknown) => logger.warn('slack app stop failed', { err }));
      await background.stop();
      const drained = await core.tracker.drain(DRAIN_MS);
      if (!drained.drained) logger.warn('shutdown: in-flight work abandoned', { pending: drained.pending });
      server.closeAllConnections();
      await closing;
      await core.monitoring.close();
      await core.pool.close();
      await core.outbound.close();
      await core.store.close();
      logger.info('vigil stopped');
    })();
    return stopping;
  };
}
