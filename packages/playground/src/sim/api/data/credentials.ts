/**
 * Leaked credentials of the global search: a few hundred seeded rows, plus a lazily generated bulk set for
 * the special domain `bulk.example` (12,000 rows, built one at a time by index) so exports can stream
 * without the simulator holding them all.
 */
import { createHash } from 'node:crypto';
import type { SimCredential, SimCredentialSource } from '../types.js';
import { createPrng, type Prng } from './prng.js';
import { FIRST_NAMES, HASH_TYPES, LAST_NAMES, SOURCES, WEAK_PASSWORDS } from './texts.js';

export const BULK_CREDENTIAL_DOMAIN = 'bulk.example';
export const BULK_CREDENTIAL_COUNT = 12_000;
const BULK_ID_BASE = 900_000_000;

const CORPORATE_DOMAINS = [
  'acme.example',
  'acme-labs.example',
  'initech.example',
  'globex.example',
  'hooli.example',
  'umbrella.example',
];
const AUTH_HOSTS = ['login.microsoftonline.com', 'github.com', 'vpn.acme.example', 'slack.com', 'okta.com'];

/** `2026-11-02T10:11:12+00:00`, the Python isoformat the real API uses (offset, no Z). */
const isoWithOffset = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');

function sourceOf(index: number, baseMs: number): SimCredentialSource {
  const s = SOURCES[index % SOURCES.length] ?? SOURCES[0];
  return {
    id: s.id,
    name: s.name,
    description_en: s.name ? `${s.name}: credentials collected from public and underground sources.` : null,
    description_fr: s.name
      ? `${s.name} : identifiants collectés de sources publiques et clandestines.`
      : null,
    breached_at: s.breached ? isoWithOffset(baseMs - (400 + index * 30) * 86_400_000) : null,
    leaked_at: isoWithOffset(baseMs - (200 + index * 20) * 86_400_000),
    is_alert_enabled: s.alert,
    pii_tags: s.pii ? [...s.pii] : null,
    url: s.name ? `https://app.flare.io/#/sources/${s.id}` : null,
  };
}

function hashOf(rng: Prng, type: string | null, password: string): string {
  switch (type) {
    case 'md5':
      return createHash('md5').update(password).digest('hex');
    case 'sha1':
      return createHash('sha1').update(password).digest('hex');
    case 'sha256':
      return createHash('sha256').update(password).digest('hex');
    case 'ntlm':
      return rng.hex(32).toUpperCase();
    case 'bcrypt':
      return `$2b$12$${rng.hex(53)}`;
    default:
      // Unknown or untyped values are often the plaintext itself.
      return password;
  }
}

export function buildCredentials(seed: number, nowMs: number, count = 320): SimCredential[] {
  const rng = createPrng(seed ^ 0x5eed);
  const out: SimCredential[] = [];
  for (let i = 0; i < count; i++) {
    const domain = i % 5 === 4 ? rng.pick(['gmail.example', 'mail.example']) : rng.pick(CORPORATE_DOMAINS);
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const noDomain = i % 41 === 0;
    const local =
      i % 3 === 0 ? `${first}.${last}` : i % 3 === 1 ? `${first[0]}${last}` : `${first}${rng.int(1, 99)}`;
    const hashType = HASH_TYPES[i % HASH_TYPES.length] ?? null;
    const password = i % 7 === 0 ? rng.pick(WEAK_PASSWORDS) : `${first}${rng.int(1000, 9999)}!`;
    const sourceIndex = rng.int(0, SOURCES.length - 1);
    const hosts = i === 7 ? manyHosts(100) : AUTH_HOSTS.filter(() => rng.chance(0.3));
    out.push({
      id: 50_000_000 + i * 17,
      identity_name: noDomain ? `${local}` : `${local}@${domain}`,
      domain: noDomain ? null : domain,
      source_id: SOURCES[sourceIndex]?.id ?? 'unknown_source',
      imported_at: isoWithOffset(nowMs - rng.int(1, 365 * 24 * 60) * 60_000),
      hash: hashOf(rng, hashType, password),
      hash_type: hashType,
      source: i % 53 === 0 ? null : sourceOf(sourceIndex, nowMs),
      known_password_id: rng.chance(0.4) ? rng.int(1, 5_000_000) : null,
      credential_hash: rng.chance(0.8) ? rng.hex(64) : null,
      event_uid: rng.chance(0.5) ? `leaked_credential/${SOURCES[sourceIndex]?.id}/${rng.hex(12)}` : null,
      auth_domains: hosts,
      urls: hosts.slice(0, 3).map((h) => `https://${h}/login`),
    });
  }
  return out;
}

function manyHosts(n: number): string[] {
  return Array.from({ length: n }, (_, k) => `app${k + 1}.saas.example`);
}

/**
 * Bulk row `i` (0 = newest). imported_at strictly decreases with i, so a date filter or a cursor maps to an
 * index range by arithmetic and nothing is materialised.
 */
export function bulkCredential(i: number, nowMs: number): SimCredential {
  const rng = createPrng(i + 17);
  const hashType = HASH_TYPES[i % HASH_TYPES.length] ?? null;
  const password = `bulk${i}!`;
  return {
    id: BULK_ID_BASE + i,
    identity_name: `user${i}@${BULK_CREDENTIAL_DOMAIN}`,
    domain: BULK_CREDENTIAL_DOMAIN,
    source_id: 'combo_2025_q3',
    imported_at: isoWithOffset(bulkImportedMs(i, nowMs)),
    hash: hashOf(rng, hashType, password),
    hash_type: hashType,
    source: sourceOf(0, nowMs),
    known_password_id: i % 3 === 0 ? 1_000_000 + i : null,
    credential_hash: rng.hex(64),
    event_uid: null,
    auth_domains: i % 4 === 0 ? ['vpn.bulk.example'] : [],
    urls: i % 4 === 0 ? ['https://vpn.bulk.example/login'] : [],
  };
}

/** Whole seconds, one minute apart, below the hour the simulator started in. */
export const bulkImportedMs = (i: number, nowMs: number): number =>
  Math.floor(nowMs / 3_600_000) * 3_600_000 - (i + 1) * 60_000;
