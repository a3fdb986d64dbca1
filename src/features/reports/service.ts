/** A report request's status and content, with the API's refusals said in terms of reports. */
import type { ReportRequestResult } from '../../api/index.js';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../api/index.js';
import type { ApiAccess } from '../../domain/workspace-api.js';
import { VigilError } from '../../kernel/errors.js';

class ReportsNotEnabledError extends VigilError {
  constructor(cause: unknown) {
    super(
      'Reports are not enabled for this account, or this API key may not read them.',
      'Ask your threat-intel account owner to enable reports for this API key.',
      { cause },
    );
  }
}

async function getReport(
  deps: { api: ApiAccess },
  workspaceId: string,
  requestUuid: string,
): Promise<ReportRequestResult> {
  try {
    return await deps.api.call(workspaceId, ({ session }) => session.getReportRequest(requestUuid));
  } catch (err) {
    if (err instanceof NotFoundError) {
      throw new VigilError(
        `There is no report request \`${requestUuid}\` in this workspace’s tenant.`,
        'Check the request id; report requests belong to the tenant they were made in (`/vigil status` shows yours).',
        { cause: err },
      );
    }
    if (err instanceof ForbiddenError || err instanceof UnauthorizedError)
      throw new ReportsNotEnabledError(err);
    throw err;
  }
}

/** Report requests of the workspace's tenant. */
export class ReportsService {
  constructor(private readonly deps: { api: ApiAccess }) {}

  get(workspaceId: string, requestUuid: string): Promise<ReportRequestResult> {
    return getReport(this.deps, workspaceId, requestUuid);
  }
}
