import { startSimApi } from '../src/sim/api/index.js';
const sim = await startSimApi({ emptyPageEvery: 0 });
const key = sim.keys.find((k) => k.features.sandbox && k.features.reports)!;
const tok = async () => { const r = await fetch(`${sim.url}/tokens/generate`, { method: 'POST', headers: { authorization: key.apiKey } }); return (await r.json() as {token: string}).token; };
const f = sim.state.family;
for (const mode of ['seeded', 'lean', 'rich'] as const) {
  sim.state.options.answers = mode;
  const token = await tok();
  const tenant = key.defaultTenantId;
  const ident = sim.state.identifiersOf(tenant)[0]!.id;
  const policy = sim.state.policies.find((p) => p.tenantId === tenant)!;
  const report = sim.state.reportRequests.find((r) => r.tenantId === tenant && r.status === 'completed')!;
  const ev = sim.state.events.find((e) => e.tenantId === tenant)!;
  sim.state.options.intelRequestsPublished = true;
  const reqs: [string, string, unknown?][] = [
    ['GET', '/tokens/test'],
    ['POST', `/${f}/v4/events/identifiers/${ident}/_search`, { size: 3 }],
    ['POST', `/${f}/v4/events/tenant/_search`, { size: 2 }],
    ['POST', `/${f}/v4/credentials/global/_search`, { query: { type: 'domain', fqdn: 'acme.example' }, size: 2, include: ['auth_domains'] }],
    ['GET', `/${f}/v4/matching-policies?size=2`],
    ['GET', `/${f}/v4/matching-policies/${policy.uuid}/assignments?size=2`],
    ['GET', `/${f}/v4/identifier-recommendations/?size=3`],
    ['POST', `/${f}/v4/sandbox/uploads`, { filename: 'a.exe' }],
    ['GET', `/${f}/v2/activities/${ev.item.metadata.uid}/ai_assistance`],
    ['GET', `/${f}/v2/organizations/${key.organizationId}/tenants?size=2`],
    ['GET', `/${f}/v4/threat_flow/reports/requests/${report.uuid}`],
    ['GET', `/${f}/v4/threat_flow/intel/requests/${report.uuid}`],
  ];
  for (const [method, p, body] of reqs) {
    const res = await fetch(sim.url + p, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : null });
    const json = await res.json();
    const [path, q = ''] = p.split('?');
    const m = sim.contract.match(method, path!);
    const problems = typeof m === 'object' ? sim.contract.checkResponse(m.operation, json) : ['nomatch'];
    console.log(mode, res.status, method, path, problems.slice(0, 5), mode !== 'seeded' ? JSON.stringify(json).slice(0, 400) : '');
  }
}
console.log('violations', JSON.stringify(sim.contractViolations));
await sim.close();
