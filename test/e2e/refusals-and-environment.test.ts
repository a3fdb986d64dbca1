/**
 * Through the running receiver: refusals are answers (no reference code, one info line without a stack),
 * one member's searches are bounded and cannot hold up another's, and a workspace connected from the
 * environment shows its tenant by name, the quota last seen and the API host as is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimApi } from '../../packages/playground/src/sim/api/index.js';
import { command, IDENTIFIER, SEEDED_USERS } from '../features/events/support/events-stack.js';
import { textOf } from '../harness/index.js';
import { type Stack, startStack } from '../support/stack.js';

const logLines = (stack: Stack, from: number) =>
  stack.logs.slice(from).map((l) => JSON.parse(l) as Record<string, unknown>);

describe('refusals and fairness, on a stored connection', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('answers a refusal without a reference code and logs it as info without a stack', async () => {
    const before = stack.logs.length;
    const { post } = await command(stack, 'audit', { userId: SEEDED_USERS.member });
    expect(post.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    const all = JSON.stringify(post.body);
    expect(all).toContain('Only workspace admins can read the audit log.');
    expect(all).not.toMatch(/Reference|\(ref /);
    const lines = logLines(stack, before);
    const refused = lines.filter((l) => l.msg === 'request refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ level: 'info', refusal: 'NotAllowedError' });
    expect(JSON.stringify(refused[0])).not.toContain('stack');
    expect(lines.filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
  });

  it('keeps reference codes for real failures', async () => {
    // Every attempt fails (a single 500 on a search is retried and answered).
    stack.sim.faults.add({ path: /\/_search$/, times: 5, response: { status: 500, body: 'boom' } });
    const { post } = await command(stack, `events ${IDENTIFIER.domain}`);
    expect(String(post.body.text)).toMatch(/\(ref [0-9A-F]{8}\)$/);
    stack.sim.faults.clear();
  });

  it('bounds one member’s searches with a polite answer, and serves another member meanwhile', async () => {
    // Three slow searches hold the member's share; the fourth is told to wait, at once.
    stack.sim.faults.add({ path: /\/_search$/, times: 3, response: { delayMs: 1500 } });
    const slow = [0, 1, 2].map(() =>
      command(stack, `events ${IDENTIFIER.domain} size:1`, { userId: SEEDED_USERS.member }),
    );
    // Wait until all three are at the simulated API (its log records each request as it arrives).
    for (
      let i = 0;
      i < 200 && stack.sim.log.entries.filter((e) => e.path.endsWith('/_search')).length < 3;
      i++
    )
      await new Promise((r) => setImmediate(r));
    const before = stack.logs.length;
    const busy = await command(stack, `events ${IDENTIFIER.domain} size:1`, { userId: SEEDED_USERS.member });
    expect(String(busy.post.body.text)).toBe(
      'You have 3 searches running; wait for them to finish before starting another.',
    );
    expect(JSON.stringify(busy.post.body)).not.toMatch(/Reference|\(ref /);
    expect(
      logLines(stack, before).some((l) => l.msg === 'request refused' && l.refusal === 'BusyError'),
    ).toBe(true);
    const other = await command(stack, `events ${IDENTIFIER.domain} size:1`, { userId: SEEDED_USERS.admin });
    expect(String(other.post.body.text)).toMatch(/^Events 1 for identifier/);
    for (const s of await Promise.all(slow)) expect(String(s.post.body.text)).toMatch(/^Events 1 for/);
  });
});

describe('a workspace connected from the environment', () => {
  let stack: Stack;
  beforeAll(async () => {
    // The simulated API's keys are seeded, so a first instance tells the key the stack's instance will have.
    const probe = await startSimApi();
    const key = probe.keys[0];
    await probe.close();
    if (!key) throw new Error('no simulated key');
    stack = await startStack({
      connect: false,
      env: { VIGIL_API_KEY: key.apiKey, VIGIL_TENANT_ID: String(key.defaultTenantId) },
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('shows the tenant by name, the search quota last seen and the API host as is, in status and App Home', async () => {
    const host = new URL(stack.sim.url).host;
    const before = await command(stack, 'status');
    expect(textOf(before.post.body)).toContain('*Global searches left:* not reported yet');
    // A credential search reports the quota; status shows what it last saw.
    await command(stack, 'creds domain acme.example', { userId: SEEDED_USERS.admin });
    const { post } = await command(stack, 'status');
    const text = textOf(post.body);
    expect(String(post.body.text)).toBe(
      'Vigil is connected to tenant Acme Production (2001), organization 1001.',
    );
    expect(text).toContain('*Tenant:* *Acme Production* (id 2001)');
    expect(text).toContain(`*Region:* \`${host}\``);
    expect(text).not.toContain('[.]');
    expect(text).toMatch(/\*Global searches left:\* \d+ · as of <!date\^/);
    expect(text).toContain('Connected from the environment (VIGIL_API_KEY).');

    const res = await stack.sender.event({ type: 'app_home_opened', userId: SEEDED_USERS.member });
    expect(res.status).toBe(200);
    const published = await stack.slack.waitFor('views.publish');
    const home = textOf(published.body);
    expect(home).toContain('*Tenant:* *Acme Production* (id 2001)');
    expect(home).toContain(`*Region:* \`${host}\``);
    expect(home).toMatch(/\*Global searches left:\* \d+/);
    expect(home).toContain('*Last successful call:* <!date^');
  });
});
