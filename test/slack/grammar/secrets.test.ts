import { describe, expect, it } from 'vitest';
import {
  detectSecret,
  looksLikeSecret,
  mayBeSecret,
  type SecretKind,
} from '../../../src/slack/grammar/secrets.js';

// Fake secrets, assembled so this file itself does not look like it holds real ones.
const slackBot = ['xoxb', '123456789012', '1234567890123', 'AbCdEfGhIjKlMnOpQrStUvWx'].join('-');
const slackUser = ['xoxp', '123456789012', '123456789012', 'abcdef0123456789'].join('-');
const slackApp = ['xapp', '1', 'A0123ABCD', '1234567890', 'abcdef0123456789'].join('-');
const ghp = `ghp_${'a1B2c3D4e5F6g7H8i9J0'.repeat(2)}`;
const ghPat = `github_pat_${'11ABCDEFG0123456789_abcdefXYZ'}`;
const aws = `AKIA${'IOSFODNN7EXAMPLE'}`;
const openai = `sk-${'proj-Ab12Cd34Ef56Gh78Ij90'}`;
const stripe = `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`;
const google = `AIza${'SyA-1234567890abcdefghijklmnopqrs'}`;
const jwt = [
  'eyJhbGciOiJIUzI1NiJ9',
  'eyJzdWIiOiIxMjM0NTY3ODkwIn0',
  'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
].join('.');
const pem = ['-----BEGIN', 'RSA PRIVATE KEY-----'].join(' ');
const genericKey = 'Zk9vR2xBc3Q4UmFuZG9tS2V5MTIzNDU2Nzg5';
const urlSafeKey = 'q7W_x2Lm-9Rt4Vb8Nc3Zp6Hs1Kd5Fg0J';

describe('looksLikeSecret: refused', () => {
  it.each<[string, string, SecretKind]>([
    ['Slack bot token', `connect ${slackBot}`, 'slack-token'],
    ['Slack user token', slackUser, 'slack-token'],
    ['Slack app token', slackApp, 'slack-token'],
    [
      'Slack webhook',
      `keyword:<https://hooks.slack.com/services/T0001/B0001/${'abcdefgh'}>`,
      'slack-webhook',
    ],
    ['GitHub token', `events 12 keyword:${ghp}`, 'github-token'],
    ['GitHub fine-grained token', ghPat, 'github-token'],
    ['AWS access key id', `query:"${aws}"`, 'aws-key'],
    ['sk- key', openai, 'api-key'],
    ['Stripe live key', stripe, 'api-key'],
    ['Google API key', google, 'google-key'],
    ['JWT', `explain ${jwt}`, 'jwt'],
    ['PEM private key', pem, 'private-key'],
    ['password=', 'creds keyword jdoe password=hunter2', 'password-assignment'],
    ['password: with space', 'password: hunter2', 'password-assignment'],
    ['Password= any case', 'PassWord=x', 'password-assignment'],
    ['pwd:', 'events 12 pwd:letmein', 'password-assignment'],
    ['passwd=', 'passwd=letmein', 'password-assignment'],
    ['pass:', 'creds email a@b.co pass:letmein', 'password-assignment'],
    ['apikey=', 'apikey=abc', 'password-assignment'],
    ['api_key:', 'api_key: abc', 'password-assignment'],
    ['api-key=', 'api-key=abc', 'password-assignment'],
    ['token=', 'status token=abc', 'password-assignment'],
    ['client_secret=', 'client_secret=abc', 'password-assignment'],
    ['db_password=', 'query:"db_password=abc"', 'password-assignment'],
    ['generic base64 key', `connect ${genericKey}`, 'high-entropy'],
    ['generic url-safe key', `tenant ${urlSafeKey}`, 'high-entropy'],
    ['key inside a URL', `https://example.com/hook?k=${urlSafeKey}`, 'high-entropy'],
    ['key quoted', `keyword:"${genericKey}"`, 'high-entropy'],
    ['key after typographic quote', `keyword:“${genericKey}”`, 'high-entropy'],
  ])('%s', (_name, text, kind) => {
    expect(detectSecret(text)).toBe(kind);
    expect(looksLikeSecret(text)).toBe(true);
  });
});

describe('looksLikeSecret: accepted', () => {
  it.each<[string, string]>([
    ['empty', ''],
    ['help', 'help events'],
    ['creds password (opens the modal)', 'creds password'],
    ['events secret (opens the modal)', 'events 12345 secret'],
    ['events credentials (opens the modal)', 'events 12345 credentials'],
    ['keyword about passwords', 'events 12 keyword:password'],
    ['query mentioning passwords', 'events 12 query:"password reset"'],
    ['query mentioning api keys', 'events 12 query:"leaked apikey"'],
    ['passport', 'events 12 keyword:passport: x'],
    ['bypass=', 'events 12 query:"bypass=1"'],
    ['report uuid', 'report 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d'],
    ['upper-case uuid', 'assignments 9B1DEB4D-3B7D-4BAD-9BDD-2B0D7B3DCB6D'],
    ['azure tenant', 'events 12 azure_tenant:72f988bf-86f1-41af-91ab-2d7cd011db47'],
    ['event uid', 'explain leak/breach_source/abc/def'],
    ['event uid with a random id', 'explain illicit_networks/telegram/AbCdEf123456GhIjKl789012MnOpQr'],
    ['event uid with a hash id', 'explain leak/combolist/5f4dcc3b5aa765d61d8327deb882cf99'],
    ['md5', 'events 12 query:"5f4dcc3b5aa765d61d8327deb882cf99"'],
    ['sha1', 'events 12 query:5baa61e4c9b93f3f0682250b6cf8331b7ee68fd8'],
    ['sha256', 'events 12 query:"5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8"'],
    ['upper-case sha256', 'events 12 query:5E884898DA28047151D0E56F8DC6292773603D0D6AABBDD62A11EF721D1542D8'],
    ['long domain', 'creds domain very-long-subdomain-name-for-testing.internal-services.example.com'],
    ['long email', 'creds email firstname.lastname.department2024@subsidiary-holdings.example.com'],
    ['snake_case words', 'events 12 type:infected_devices,financial_data,chat_message'],
    ['long plain word', 'events 12 keyword:supercalifragilisticexpialidocious'],
    ['IPv6', 'events 12 ip:2001:0db8:85a3:0000:0000:8a2e:0370:7334'],
    ['dates', 'events 12 since:2026-11-01T10:00:00.123Z until:2026-11-30'],
    ['channel reference', 'digest add <#C0123ABCDEF|soc-alerts-critical> tz:America/Argentina/Buenos_Aires'],
    ['Slack permalink', 'keyword:https://acme.slack.com/archives/C0123ABCD/p1700000000123456'],
    ['digits', 'events 123456789012345678901234567890'],
    ['github repo', 'events 12 github:acme-corporation/website-frontend-2024'],
    ['name', 'events 12 name:"Ada Lovelace" strict'],
    ['repeated characters', 'keyword:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa11'],
    ['sk- word without digits', 'events 12 keyword:sk-learn-classification-tutorial'],
    ['short pwd mention', 'how do I search by pwd'],
  ])('%s', (_name, text) => {
    expect(detectSecret(text)).toBeUndefined();
    expect(looksLikeSecret(text)).toBe(false);
  });
});

describe('typed passwords', () => {
  it.each([
    'events 3001 query:"P@ssw0rd123!"',
    'events 3001 keyword:Summer2024!',
    'creds keyword Tr0ub4dor&3',
    'events 3001 query:“hunter2#Secret”',
    'events 3001 brand:acme$2024x',
    'creds email a@b.co P@ssw0rd',
  ])('%s is refused', (text) => {
    expect(detectSecret(text)).toBe('password');
  });

  it.each([
    'creds domain acme-2024.example.com',
    'creds email First.Last2024@Example.com',
    'events 3001 keyword:Log4Shell',
    'events 3001 keyword:Log4j-2.17',
    'events 3001 query:"CVE-2021-44228"',
    'events 3001 query:"+acme2024 -test (corp1 OR corp2)"',
    'events 3001 query:"foo*2024 te?t2024"',
    'events 3001 since:2026-11-01T10:00+02:00',
    'alerts add identifiers:all,3001',
    'digest add #soc-alerts2 at:09:00',
    'events 3001 keyword:acme_corp_2024',
    'assignments 9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d',
    'explain leak/combolist/Ab12+cd==',
    'events 12 &lt;!channel&gt;&amp;&lt;@U123&gt;',
  ])('%s passes', (text) => {
    expect(detectSecret(text)).toBeUndefined();
  });
});

describe('mayBeSecret: stray words never quoted back', () => {
  it.each(['hunter2', 'P@ssw0rd123!', 'letmein99', '"s3cr3t"', 'keyword:abc123'])(
    '%s may be a secret',
    (w) => {
      expect(mayBeSecret(w)).toBe(true);
    },
  );
  it.each([
    'severty',
    'events:12',
    '"quoted"',
    'since:7d',
    '2026-11-01',
    '12345',
    '<@U0123|bob>',
    'foo<!channel>',
  ])('%s is quoted', (w) => {
    expect(mayBeSecret(w)).toBe(false);
  });
});
