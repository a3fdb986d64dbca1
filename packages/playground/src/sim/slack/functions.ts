/**
 * Workflow steps (custom functions) as Slack runs them: each run of a step is an execution with its own
 * workflow token, and it completes once, through functions.completeSuccess or functions.completeError. Outputs
 * are checked against the step's declaration in the app's manifest, as Slack does, so an app whose outputs do
 * not match what it declared is refused here as it would be there (`parameter_validation_failed`).
 */
import type { Json } from './types.js';

/** One parameter as a manifest declares it (`input_parameters` / `output_parameters`). */
export interface DeclaredParameter {
  type: string;
  title?: string;
  is_required?: boolean;
  items?: { type: string };
  [other: string]: unknown;
}

export interface DeclaredFunction {
  title: string;
  description?: string;
  input_parameters?: Record<string, DeclaredParameter>;
  output_parameters?: Record<string, DeclaredParameter>;
}

/** The manifest's `functions` section. */
export type FunctionDeclarations = Record<string, DeclaredFunction>;

export interface FunctionExecution {
  id: string;
  callbackId: string;
  teamId: string;
  /** The workflow token (`bot_access_token`) Slack hands the app for this execution. */
  token: string;
  workflowExecutionId: string;
  inputs: Json;
  state: 'running' | 'completed' | 'failed';
  outputs?: Json;
  error?: string;
}

const ID_TYPES: Record<string, RegExp> = {
  'slack#/types/user_id': /^[UW][A-Z0-9]{2,}$/,
  'slack#/types/channel_id': /^[CGD][A-Z0-9]{2,}$/,
  'slack#/types/usergroup_id': /^S[A-Z0-9]{2,}$/,
  'slack#/types/message_ts': /^\d+\.\d+$/,
  'slack#/types/date': /^\d{4}-\d{2}-\d{2}$/,
};

function isPlainObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isSelectOption(v: unknown): boolean {
  if (!isPlainObject(v) || typeof v.value !== 'string') return false;
  const text = v.text;
  return isPlainObject(text) && text.type === 'plain_text' && typeof text.text === 'string';
}

/** Why `value` is not of `type`, or undefined when it is. */
function typeProblem(type: string, value: unknown, items?: { type: string }): string | undefined {
  const pattern = ID_TYPES[type];
  if (pattern !== undefined)
    return typeof value === 'string' && pattern.test(value) ? undefined : `is not a ${type}`;
  switch (type) {
    case 'string':
      return typeof value === 'string' ? undefined : 'is not a string';
    case 'integer':
      return Number.isInteger(value) ? undefined : 'is not an integer';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'is not a number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'is not a boolean';
    case 'object':
      return isPlainObject(value) ? undefined : 'is not an object';
    case 'slack#/types/timestamp':
      // Seconds since the epoch.
      return Number.isInteger(value) && (value as number) >= 0 ? undefined : 'is not a timestamp (seconds)';
    case 'array': {
      if (!Array.isArray(value)) return 'is not an array';
      if (items === undefined) return undefined;
      const bad = value.findIndex((v) => typeProblem(items.type, v) !== undefined);
      return bad < 0 ? undefined : `item ${bad} ${typeProblem(items.type, value[bad])}`;
    }
    case 'slack#/types/user_context':
      // The person Slack vouches for; `secret` lets Slack check the id, apps ignore it.
      return isPlainObject(value) &&
        typeof value.secret === 'string' &&
        typeProblem('slack#/types/user_id', value.id) === undefined
        ? undefined
        : 'is not a user_context ({id: user_id, secret})';
    case 'slack#/types/interactivity':
      return isPlainObject(value) &&
        typeof value.interactivity_pointer === 'string' &&
        typeProblem('slack#/types/user_context', value.interactor) === undefined
        ? undefined
        : 'is not an interactivity ({interactivity_pointer, interactor: user_context})';
    case 'slack#/types/options_select':
      return Array.isArray(value) && value.every(isSelectOption)
        ? undefined
        : 'is not a list of options ({text: plain_text, value})';
    default:
      return `has a type the fake Slack does not know (${type})`;
  }
}

/** What Slack would refuse in `outputs` for a function declaring `declared`. */
export function outputProblems(declared: DeclaredFunction, outputs: unknown): string[] {
  if (!isPlainObject(outputs)) return ['outputs must be an object'];
  const params = declared.output_parameters ?? {};
  const problems: string[] = [];
  for (const [name, param] of Object.entries(params)) {
    const value = outputs[name];
    if (value === undefined || value === null) {
      if (param.is_required === true) problems.push(`output ${name} is required`);
      continue;
    }
    const problem = typeProblem(param.type, value, param.items);
    if (problem !== undefined) problems.push(`output ${name} ${problem}`);
  }
  for (const name of Object.keys(outputs)) {
    if (!(name in params)) problems.push(`output ${name} is not declared`);
  }
  return problems;
}

/**
 * What Slack would never deliver in a step's `inputs`: Workflow Builder publishes a workflow only when every
 * required input of its steps is filled, each of its declared type (one of `enum` when it has one).
 */
export function inputProblems(declared: DeclaredFunction, inputs: unknown): string[] {
  if (!isPlainObject(inputs)) return ['inputs must be an object'];
  const params = declared.input_parameters ?? {};
  const problems: string[] = [];
  for (const [name, param] of Object.entries(params)) {
    const value = inputs[name];
    if (value === undefined || value === null) {
      if (param.is_required === true) problems.push(`input ${name} is required`);
      continue;
    }
    const problem = typeProblem(param.type, value, param.items);
    if (problem !== undefined) problems.push(`input ${name} ${problem}`);
    else if (Array.isArray(param.enum) && !param.enum.includes(value))
      problems.push(`input ${name} is not one of ${param.enum.join(', ')}`);
  }
  for (const name of Object.keys(inputs)) {
    if (!(name in params)) problems.push(`input ${name} is not declared`);
  }
  return problems;
}

/** The parameters of a declaration as the function_executed event lists them. */
export function parameterList(params: Record<string, DeclaredParameter> | undefined): Json[] {
  return Object.entries(params ?? {}).map(([name, p]) => ({
    type: p.type,
    name,
    ...(p.title === undefined ? {} : { title: p.title }),
    is_required: p.is_required === true,
  }));
}
