/** `/vigil report <uuid>`: every state, the content of a completed report, Explain, the path fallback. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SimReportRequest } from '../../../packages/playground/src/sim/api/index.js';
import { buttons, textOf } from '../../harness/index.js';
import { type Stack, startStack } from '../../support/stack.js';
import { click, command, waitPostTo } from './support.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ sim: { emptyPageEvery: 0 } });
});
afterAll(async () => {
  await stack?.close();
});
afterEach(() => {
  stack.sim.faults.clear();
});

function request(status: SimReportRequest['status']): SimReportRequest {
  const found = stack.sim.state.reportRequests.find(
    (r) => r.tenantId === 2001 && r.status === status && (status !== 'completed' || r.report),
  );
  if (!found) throw new Error(`no ${status} report request in the seed`);
  return found;
}

const reportCalls = () => stack.sim.log.entries.filter((e) => e.path.includes('/threat_flow/'));

describe('/vigil report', () => {
  it('refuses a malformed request id locally, with no API call', async () => {
    stack.sim.log.clear();
    const res = await stack.sender.slashCommand({
      text: 'report 1234-not-a-uuid',
      responseUrl: stack.slack.responseUrl(),
    });
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toMatch(/report request id/i);
    expect(stack.sim.log.entries).toHaveLength(0);
  });

  it('shows a request still processing', async () => {
    const r = request('processing');
    const { post } = await command(stack, `report ${r.uuid}`);
    expect(textOf(post.body)).toContain(`*Report request* \`${r.uuid}\``);
    expect(textOf(post.body)).toContain('*Processing*');
    expect(buttons(post.body)).toHaveLength(0);
  });

  it('shows a completed report: title, subtitle, summary, tags, highlights, related events with Explain', async () => {
    const r = request('completed');
    const report = r.report;
    if (!report) throw new Error('completed without report');
    const { post } = await command(stack, `report ${r.uuid}`);
    const text = textOf(post.body);
    expect(text).toContain('*Completed*');
    expect(text).toContain(report.title.slice(0, 40));
    expect(text).toContain('Tags: ');
    expect(text).toContain('*Highlights*');
    expect(text).toContain(`*Related events* (${report.related_activity_uids.length})`);
    const explain = buttons(post.body).filter((b) => b.text === 'Explain');
    expect(explain.length).toBe(Math.min(20, report.related_activity_uids.length));
    expect(explain[0]?.value).toBe(report.related_activity_uids[0]);
    expect(post.body.blocks as unknown[]).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'header' })]),
    );

    const clicked = await click(stack, post.body, explain[0]?.action_id ?? '');
    const answer = await waitPostTo(stack, clicked.responseUrl);
    expect(answer.body.replace_original).toBe(false);
    expect(String(answer.body.text)).not.toContain('Reference');
  });

  it('shows a failed request', async () => {
    const r = request('error');
    const { post } = await command(stack, `report ${r.uuid}`);
    expect(textOf(post.body)).toContain('*Failed*');
  });

  it('falls back to the documented path when the replacement one is missing, then calls it alone', async () => {
    const r = request('completed');
    stack.sim.log.clear();
    await command(stack, `report ${r.uuid}`);
    const paths = () => reportCalls().map((e) => `${e.status} ${e.path.replace(/^.*\/threat_flow\//, '')}`);
    expect(paths().at(-1)).toBe(`200 reports/requests/${r.uuid}`);
    // Once the answer is known, a report costs one call.
    stack.sim.log.clear();
    await command(stack, `report ${r.uuid}`);
    expect(paths()).toEqual([`200 reports/requests/${r.uuid}`]);
  });

  it('says reports are not enabled when the API refuses with 403', async () => {
    const r = request('processing');
    stack.sim.faults.add({
      path: /\/threat_flow\//,
      times: 4,
      response: { status: 403, body: { error: { code: 'FEATURE_NOT_ENABLED' } } },
    });
    const { post } = await command(stack, `report ${r.uuid}`);
    expect(String(post.body.text)).toContain('Reports are not enabled for this account');
  });

  it('says when the request does not exist in the tenant', async () => {
    const { post } = await command(stack, 'report 00000000-0000-4000-8000-000000000000');
    expect(String(post.body.text)).toContain('There is no report request');
  });
});

describe('/vigil report where the replacement endpoint is published', () => {
  let intel: Stack;
  beforeAll(async () => {
    intel = await startStack({ sim: { emptyPageEvery: 0 } });
    intel.sim.state.options.intelRequestsPublished = true;
  });
  afterAll(async () => {
    await intel?.close();
  });

  it('uses it alone, and shows the reason a request failed', async () => {
    const r = intel.sim.state.reportRequests.find((x) => x.tenantId === 2001 && x.status === 'error');
    if (!r) throw new Error('no failed report request in the seed');
    const { post } = await command(intel, `report ${r.uuid}`);
    expect(textOf(post.body)).toContain('*Failed*');
    expect(textOf(post.body)).toContain('no related activity found');
    const calls = intel.sim.log.entries.filter((e) => e.path.includes('/threat_flow/'));
    expect(calls.map((c) => `${c.status} ${c.path.replace(/^.*\/threat_flow\//, '')}`)).toEqual([
      `200 intel/requests/${r.uuid}`,
    ]);
  });
});
