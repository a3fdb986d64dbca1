/**
 * What a stealer took from an infected machine, generated from the event's uid (so every run, and every page
 * of `_expand`, sees the same log): saved logins and cookies, some on the tenant's own domains, most
 * elsewhere; and the malware and victim details of the full event.
 */
import { createHash } from 'node:crypto';
import { createPrng, type Prng } from './prng.js';

export interface SimStealerLog {
  malware: { malware_family: string; build_id: string; file_location: string; infected_at: string };
  victim: { os: string; country_code: string; hwid: string; username: string; timezone: string };
  credentials: { url: string; username: string; password: string; application: string }[];
  cookies: { host_key: string; path: string; expires_utc: string | null; name: string; value: string }[];
}

const FAMILIES = ['RedLine', 'Lumma', 'Vidar', 'Raccoon', 'StealC', 'Meta'];
const ELSEWHERE = [
  'accounts.google.example',
  'www.netflix.example',
  'login.live.example',
  'www.amazon.example',
  'discord.example',
  'steamcommunity.example',
  'www.facebook.example',
  'github.com',
];
const APPLICATIONS = ['Google Chrome', 'Microsoft Edge', 'Mozilla Firefox', 'Brave'];
const COOKIE_NAMES = ['session', 'SID', 'auth_token', '_ga', 'csrftoken', 'remember_me'];

const seedOf = (uid: string): number => createHash('sha256').update(uid).digest().readUInt32BE(0);

function host(rng: Prng, ownDomains: readonly string[]): { host: string; own: boolean } {
  const domain = ownDomains.length > 0 && rng.chance(0.3) ? rng.pick(ownDomains) : undefined;
  if (domain === undefined) return { host: rng.pick(ELSEWHERE), own: false };
  return {
    host: rng.chance(0.5) ? domain : `${rng.pick(['login', 'vpn', 'mail', 'sso'])}.${domain}`,
    own: true,
  };
}

/** The log of one event; `ownDomains` are the tenant's domains, which some entries use. */
export function stealerLogOf(uid: string, ownDomains: readonly string[], createdMs: number): SimStealerLog {
  const rng = createPrng(seedOf(uid));
  const infectedMs = createdMs - rng.int(1, 30) * 86_400_000;
  const credentials = Array.from({ length: rng.int(18, 34) }, (_, i) => {
    const { host: h, own } = host(rng, ownDomains);
    const user = own
      ? `${rng.pick(['j.doe', 'm.smith', 'a.lee', 'it-admin'])}@${ownDomains[0] ?? h}`
      : `user${i}`;
    return {
      url: `https://${h}/${rng.pick(['login', 'signin', 'auth', ''])}`,
      username: user,
      password: `${rng.pick(['Summer', 'Winter', 'Acme', 'Passw0rd'])}${rng.int(1000, 9999)}!`,
      application: rng.pick(APPLICATIONS),
    };
  });
  const cookies = Array.from({ length: rng.int(22, 45) }, () => {
    const { host: h } = host(rng, ownDomains);
    const expires = rng.chance(0.2)
      ? null
      : new Date(createdMs + rng.int(-30, 365) * 86_400_000).toISOString();
    return {
      host_key: rng.chance(0.5) ? `.${h}` : h,
      path: '/',
      expires_utc: expires,
      name: rng.pick(COOKIE_NAMES),
      value: rng.hex(rng.int(16, 48)),
    };
  });
  return {
    malware: {
      malware_family: rng.pick(FAMILIES),
      build_id: rng.hex(8),
      file_location: `C:\\Users\\victim\\AppData\\Local\\Temp\\${rng.hex(6)}.exe`,
      infected_at: new Date(infectedMs).toISOString(),
    },
    victim: {
      os: rng.pick(['Windows 10 Pro', 'Windows 11 Home', 'Windows 10 Enterprise']),
      country_code: rng.pick(['US', 'CA', 'FR', 'DE', 'BR']),
      hwid: rng.hex(32).toUpperCase(),
      username: rng.pick(['jdoe', 'admin', 'user', 'msmith']),
      timezone: rng.pick(['UTC-5', 'UTC+1', 'UTC-3']),
    },
    credentials,
    cookies,
  };
}
