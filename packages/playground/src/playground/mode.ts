/** Whether to run the playground: kept apart so production start-up never loads the simulators. */

/** Any of these set means a real Slack app is meant: start-up is then as strict as ever. */
const SLACK_VARIABLES = [
  'SLACK_SIGNING_SECRET',
  'SLACK_BOT_TOKEN',
  'SLACK_APP_TOKEN',
  'SLACK_CLIENT_ID',
  'SLACK_CLIENT_SECRET',
  'SLACK_STATE_SECRET',
] as const;

/** The playground runs when asked for, or when no Slack variable at all is set. */
export function wantsPlayground(env: Record<string, string | undefined>, argv: readonly string[]): boolean {
  return argv.includes('--playground') || SLACK_VARIABLES.every((name) => !env[name]?.trim());
}
