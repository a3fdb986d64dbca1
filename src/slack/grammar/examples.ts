/**
 * The ids and values in the examples of help and usage errors. They are ids the playground's seeded data
 * has (the simulated API's tenant 2001, the fake Slack's channels and user group), so every example works
 * where it is shown, as typed; test/playground/examples.test.ts runs each of them there. In a real workspace
 * they read as any example would.
 */
export const EXAMPLE = {
  /** acme.example, a domain identifier of tenant 2001. */
  identifier: 3001,
  /** Project Nightjar, a keyword identifier of tenant 2001. */
  otherIdentifier: 3002,
  /** Acme Subsidiaries, another tenant the first key may use. */
  tenant: 2002,
  /** A channel Vigil is a member of. */
  channel: 'security',
  usergroup: 'S0SECOPS1',
  domain: 'acme.example',
  email: 'marc.ivanova@acme.example',
  username: 'marc.ivanova',
  authDomain: 'vpn.acme.example',
  /** Acme's first matching policy (30 assignments). */
  policy: '47710112-c89f-48df-bf5c-27a2358af085',
  /** A completed report request of tenant 2001. */
  report: '141a81bc-2df0-49b3-bae7-0ed321c7c200',
  /** A critical stealer-log event of identifier 3001. */
  event: 'stealer_log/lumma/100014',
} as const;
