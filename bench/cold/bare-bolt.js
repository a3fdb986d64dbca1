// The baseline of the cold-start benchmark: a stock Bolt app in its own process, started like Vigil
// (`node <file>.js`), with a /healthz route on its HTTP receiver. Configured by the same variables.
import { App, LogLevel } from '@slack/bolt';

const app = new App({
  token: process.env.SLACK_BOT_TOKEN,
  signingSecret: process.env.SLACK_SIGNING_SECRET ?? '',
  clientOptions: { slackApiUrl: process.env.SLACK_API_URL },
  logLevel: LogLevel.ERROR,
  customRoutes: [
    {
      path: '/healthz',
      method: ['GET'],
      handler: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"status":"ok"}');
      },
    },
  ],
});
app.command('/vigil', async ({ ack }) => {
  await ack();
});
await app.start({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', () => {
  app.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
