/**
 * The connect page's flow; it confirms in Slack, through the command's response_url, with the key id only.
 * Loaded by the page's first request (startup/http.ts), with the API client pool it verifies keys with.
 */

import { renderConnected } from '../domain/connection-blocks.js';
import { connectFlowPorts } from '../features/connection/connect.js';
import { ConnectFlow } from '../features/connection/connect-page.js';
import { postToResponseUrl } from '../slack/respond.js';
import type { ApiParts } from './api.js';
import type { VigilBase } from './base.js';

export function connectFlow(core: VigilBase & ApiParts): ConnectFlow {
  const { ports, regions } = connectFlowPorts({
    pool: core.pool,
    repos: core.repos,
    sealer: core.sealer,
    logger: core.logger.child({ component: 'connect' }),
    now: () => core.clock.now(),
    confirm: (responseUrl, connection, userId) =>
      postToResponseUrl(
        responseUrl,
        { response_type: 'ephemeral', replace_original: true, ...renderConnected(connection, userId) },
        core.outbound.dispatcher,
      ),
  });
  return new ConnectFlow(ports, regions);
}
