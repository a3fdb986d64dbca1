/** Ask Vigil through MCP: `/mcp` for Slackbot (Slack identity auth) and Vigil's tools (docs/mcp.md). */
export { McpAuthorizationServer } from './oauth/authorization-server.js';
export { OAuthGrants } from './oauth/grants.js';
export { SlackSignIn } from './oauth/slack-sign-in.js';
export { McpDoor } from './server.js';
