/** functions.completeSuccess / completeError: a step's run completes once, its outputs as declared. */
import { type FunctionExecution, outputProblems } from '../functions.js';
import type { Json } from '../types.js';
import { type BotMethod, fail, failWithMessages, str } from './common.js';

/** The execution the call names, when the caller's team may complete it and it is still running. */
function running({
  state,
  body,
  team,
}: Parameters<BotMethod>[0]): { execution: FunctionExecution } | { error: Json } {
  const id = str(body, 'function_execution_id');
  if (id === undefined) return { error: fail('invalid_arguments') };
  const execution = state.functionExecutions.get(id);
  if (execution === undefined) return { error: fail('function_execution_not_found') };
  if (execution.teamId !== team.teamId) return { error: fail('access_denied') };
  if (execution.state !== 'running') return { error: fail('execution_not_in_running_state') };
  return { execution };
}

export const functionMethods: Record<string, BotMethod> = {
  'functions.completeSuccess': (ctx) => {
    const found = running(ctx);
    if ('error' in found) return found.error;
    const { execution } = found;
    const outputs = ctx.body.outputs ?? {};
    const declared = ctx.state.functionDeclarations?.[execution.callbackId];
    if (ctx.state.functionDeclarations !== undefined) {
      if (declared === undefined) return fail('function_not_found');
      const problems = outputProblems(declared, outputs);
      if (problems.length > 0) return failWithMessages('parameter_validation_failed', problems);
    }
    execution.state = 'completed';
    execution.outputs = outputs as Json;
    return { ok: true };
  },
  'functions.completeError': (ctx) => {
    const found = running(ctx);
    if ('error' in found) return found.error;
    const error = str(ctx.body, 'error');
    if (error === undefined) return fail('invalid_arguments');
    found.execution.state = 'failed';
    found.execution.error = error;
    return { ok: true };
  },
};
