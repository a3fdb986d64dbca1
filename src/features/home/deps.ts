/** What App Home and its buttons use. */

import type { SnoozeService } from '../../domain/snooze-service.js';
import type { SlackBase } from '../../slack/context.js';
import type { Connection } from '../../store/index.js';
import type { HomeService } from './service.js';

/** What a row's buttons change: digest and alert subscriptions answer alike. */
export interface RowSubscriptions {
  get(workspaceId: string, id: string): Promise<{ createdBy: string }>;
  pause(workspaceId: string, id: string, userId: string): Promise<unknown>;
  resume(workspaceId: string, id: string, userId: string): Promise<unknown>;
  remove(workspaceId: string, id: string, userId: string): Promise<void>;
}

/** The connection feature's service as App Home's Connect and Disconnect buttons use it. */
interface HomeConnection {
  get(workspaceId: string): Promise<Connection | undefined>;
  createLink(req: {
    workspaceId: string;
    userId: string;
  }): Promise<{ url: string; expiresAt: number } | undefined>;
  disconnect(workspaceId: string, userId: string, via?: string): Promise<boolean>;
}

export interface HomeDeps extends SlackBase {
  /** What the Home shows: its overview, trend, and an org admin's workspaces. */
  home: HomeService;
  connection: HomeConnection;
  snoozes: SnoozeService;
  /** The subscriptions the Home lists, changed by its rows' Pause / Resume / Remove. */
  subscriptions: { digests: RowSubscriptions; alerts: RowSubscriptions };
}
