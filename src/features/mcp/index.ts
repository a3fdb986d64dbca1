/** Ask Vigil through MCP: `/mcp` for Slackbot (Slack identity auth) and Vigil's tools (docs/mcp.md). */
export { McpDoor } from './server.js';
