/**
 * Watching assets from Slack: adding, removing, disabling and enabling the tenant's identifiers. Each change
 * is audited, and forgets the identifier list every instance shares, so the next lookup anywhere reads it
 * again. The API's 422 comes back as the fields a person typed (`value`, `name`), each with its reason.
 */
import {
  type ApiSession,
  type IdentifierDetail,
  NotFoundError,
  type SearchType,
  ValidationError,
  type WatchSeverity,
  type WatchType,
} from '../api/index.js';
import { RefusalError, VigilError } from '../kernel/errors.js';
import type { Repositories } from '../store/index.js';
import type { IdentifierDirectory } from './identifiers.js';
import type { ApiAccess } from './workspace-api.js';

/** What a person typed, as the refusal names it. */
export type WatchField = 'type' | 'value' | 'name' | 'categories' | 'severities';

/** The API (or Vigil, before sending) refused the identifier: which field, and why, for each problem. */
export class IdentifierRefusedError extends RefusalError {
  constructor(
    readonly problems: ReadonlyArray<{ field: WatchField; reason: string }>,
    cause: unknown,
  ) {
    super('The threat-intel API refused this identifier.', 'Correct the value and run the command again.', {
      cause,
    });
  }
}

/** `body.data.identity.attributes.0.email.email` → `value`; `body.name` → `name`. */
function fieldOf(location: string): WatchField {
  if (/(^|\.)name$/.test(location) && !location.includes('data')) return 'name';
  if (location === 'type') return 'type';
  if (/(^|\.)categories(\.|$)/.test(location)) return 'categories';
  if (/(^|\.)severities(\.|$)/.test(location)) return 'severities';
  return 'value';
}

/** The reasons are upstream text: short, and the caller escapes them. */
function refusalOf(err: ValidationError): IdentifierRefusedError {
  const problems = err.fields.map((f) => ({ field: fieldOf(f.field), reason: f.message.slice(0, 300) }));
  return new IdentifierRefusedError(
    problems.length > 0 ? problems : [{ field: 'value', reason: 'not accepted' }],
    err,
  );
}

function notFound(id: number, cause: unknown): VigilError {
  return new VigilError(
    `There is no identifier \`${id}\` in this workspace’s tenant.`,
    'Check the id with `/vigil identifiers <name>`; identifiers belong to the tenant they were made in.',
    { cause },
  );
}

export interface WatchDeps {
  api: ApiAccess;
  repos: Pick<Repositories, 'audit'>;
  identifiers: Pick<IdentifierDirectory, 'invalidate'>;
}

export interface WatchedIdentifier {
  id: number;
  name: string;
  type: string;
  disabled: boolean;
}

function watched(i: IdentifierDetail): WatchedIdentifier {
  return { id: i.id, name: i.name, type: i.data.type, disabled: i.is_disabled === true };
}

export class WatchService {
  constructor(private readonly deps: WatchDeps) {}

  /** Creates the identifier; `origin` says where the value came from (a recommendation) for the audit. */
  async add(req: {
    workspaceId: string;
    userId: string;
    type: WatchType;
    value: string;
    name?: string | undefined;
    /** Absent: every published category; absent severities: every severity. */
    categories?: readonly SearchType[] | undefined;
    severities?: readonly WatchSeverity[] | undefined;
    origin?: string;
  }): Promise<WatchedIdentifier> {
    const created = await this.change(req.workspaceId, undefined, (session) =>
      session.createIdentifier({
        type: req.type,
        value: req.value,
        ...(req.name === undefined ? {} : { name: req.name }),
        ...(req.categories === undefined ? {} : { categories: req.categories }),
        ...(req.severities === undefined ? {} : { severities: req.severities }),
      }),
    );
    await this.audit(req.workspaceId, req.userId, 'identifier.add', created, req.origin ?? req.type);
    return created;
  }

  /** The identifier as the API has it now (what a confirmation names). */
  async get(workspaceId: string, id: number): Promise<WatchedIdentifier> {
    return this.change(workspaceId, id, (session) => session.getIdentifier(id), false);
  }

  async remove(req: { workspaceId: string; userId: string; id: number }): Promise<WatchedIdentifier> {
    const current = await this.get(req.workspaceId, req.id);
    await this.change(req.workspaceId, req.id, async (session) => {
      await session.deleteIdentifier(req.id);
      return current;
    });
    await this.audit(req.workspaceId, req.userId, 'identifier.remove', current);
    return current;
  }

  async setDisabled(req: {
    workspaceId: string;
    userId: string;
    id: number;
    disabled: boolean;
  }): Promise<WatchedIdentifier> {
    const changed = await this.change(req.workspaceId, req.id, (session) =>
      session.setIdentifierDisabled(req.id, req.disabled),
    );
    await this.audit(
      req.workspaceId,
      req.userId,
      req.disabled ? 'identifier.disable' : 'identifier.enable',
      changed,
    );
    return changed;
  }

  /** Calls the API, turning its refusals into words, and forgets the shared list after a change. */
  private async change<T extends IdentifierDetail | WatchedIdentifier>(
    workspaceId: string,
    id: number | undefined,
    work: (session: ApiSession) => Promise<T>,
    changes = true,
  ): Promise<WatchedIdentifier> {
    try {
      const out = await this.deps.api.call(workspaceId, ({ session }) => work(session));
      return 'data' in out ? watched(out) : out;
    } catch (err) {
      if (err instanceof NotFoundError && id !== undefined) throw notFound(id, err);
      if (err instanceof ValidationError) throw refusalOf(err);
      throw err;
    } finally {
      // Even a failed change may have landed upstream (a timeout): the next lookup reads the list again.
      if (changes) await this.deps.identifiers.invalidate(workspaceId);
    }
  }

  private async audit(
    workspaceId: string,
    userId: string,
    action: string,
    identifier: WatchedIdentifier,
    detail?: string,
  ): Promise<void> {
    await this.deps.repos.audit.append({
      teamId: workspaceId,
      userId,
      action,
      target: String(identifier.id),
      title: identifier.name.slice(0, 200),
      ...(detail === undefined ? {} : { detail }),
    });
  }
}
