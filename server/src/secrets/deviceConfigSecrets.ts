import type { PatternRule } from './secretRules';
import { isPlaceholderValue, looksGenerated } from './secretValues';

/**
 * Secrets in network devices' and home automation's configuration, marked by a directive or a
 * device's format rather than by a key that names a secret: a RADIUS or TACACS+ server's `key`
 * on Cisco IOS, net-snmp's communities, Z-Wave's S0/S2 network keys, LoRaWAN keys as C byte
 * arrays, a Philips Hue bridge's user in its API path, a Mattermost incoming webhook, a JSON-RPC
 * `login` call's password (OpenWrt's LuCI), a Netdata stream's `api key`.
 */

const accept = (secret: string) => !isPlaceholderValue(secret);

/** SNMP's well-known default communities, written in every example: not a secret anywhere. */
const DEFAULT_COMMUNITY = /^(?:public|private)$/;

export const DEVICE_CONFIG_RULES: readonly PatternRule[] = [
  // Cisco IOS: `radius-server host … key …` on one line, or `key [0|7] …` in a `radius server` / `tacacs server` block.
  {
    id: 'config-password',
    pattern:
      /(?:radius|tacacs)(?<![\w-](?:radius|tacacs))(?:-server|[ \t]{1,4}server)[^\r\n]{0,200}?(?:(?:\r?\n[ \t]{1,8}(?!key[ \t])[^\r\n]{0,200}){0,8}\r?\n[ \t]{1,8}|[ \t]{1,4})key(?:[ \t]{1,4}[07])?[ \t]{1,4}(\S{1,200})/dg,
    gate: { keywords: ['tacacs', 'adius'] },
    accept,
  },
  // net-snmp's `snmpd.conf`: `rocommunity …`, `rwcommunity6 …`, `com2sec name source …`.
  {
    id: 'config-password',
    pattern: /(?:^|\n)[ \t]*(?:(?:ro|rw)community6?|com2sec6?[ \t]{1,4}\S{1,100}[ \t]{1,4}\S{1,200})[ \t]{1,4}(\S{1,200})/dg,
    gate: { keywords: ['community', 'com2sec'] },
    accept: (secret) => !DEFAULT_COMMUNITY.test(secret) && accept(secret),
  },
  // Z-Wave JS's network keys (`securityKeys:` `S2_AccessControl: <32 hex>`): whoever has them joins or reads the mesh.
  {
    id: 'config-password',
    pattern: /(?:S0_Legacy|S2_(?:Unauthenticated|Authenticated|AccessControl))["']?[ \t]{0,4}[:=][ \t]{0,4}["']?([0-9A-Fa-f]{32})(?![0-9A-Fa-f])/dg,
    gate: { keywords: ['s0_legacy', 's2_'] },
  },
  // LMIC's and LoRaWAN sketches' keys as C byte arrays: `static const u1_t PROGMEM APPKEY[16] = { 0x66, … };`.
  {
    id: 'config-password',
    pattern: /(?:APP_?S?_?KEY|NWK_?S?_?KEY)(?<![\w](?:APP_?S?_?KEY|NWK_?S?_?KEY))[ \t]{0,4}\[[ \t]{0,4}[0-9]{0,3}[ \t]{0,4}\][ \t]{0,4}=[ \t]{0,4}\{[ \t]{0,4}(0x[0-9A-Fa-f]{2}(?:[ \t]{0,4},[ \t]{0,4}0x[0-9A-Fa-f]{2}){15,31})/dgi,
    gate: { keywords: ['key'] },
  },
  // A Philips Hue bridge's user (its API key) in the API's path: `http://<bridge>/api/<user>/lights/3/state`.
  {
    id: 'config-password',
    pattern: /\/api\/([A-Za-z0-9-]{32,64})\/(?:lights|groups|config|sensors|scenes|schedules|rules|resourcelinks|capabilities)(?![\w-])/dg,
    gate: { keywords: ['api/'] },
    accept: (secret) => looksGenerated(secret),
  },
  // A Mattermost incoming webhook: `https://<host>/hooks/<26 letters and digits>` (whoever has it posts to the channel).
  {
    id: 'mattermost-webhook',
    pattern: /https?:\/\/[^\s/"'`]{1,200}\/hooks\/([A-Za-z0-9]{26})(?![A-Za-z0-9_-])/dg,
    gate: { keywords: ['hooks/'] },
    accept: (secret) => /[0-9]/.test(secret) && /[A-Za-z]/.test(secret),
  },
  // A JSON-RPC login by position: OpenWrt LuCI's `{"method":"login","params":["root","…"]}`.
  {
    id: 'positional-password',
    pattern: /"method"[ \t]{0,4}:[ \t]{0,4}"(?:login|auth|session\.login|user\.login)"[ \t]{0,4},[ \t]{0,4}"params"[ \t]{0,4}:[ \t]{0,4}\[[ \t]{0,4}"[^"\r\n]{1,100}"[ \t]{0,4},[ \t]{0,4}"([^"\r\n]{1,200})"/dg,
    gate: { keywords: ['login', 'auth'] },
    accept,
  },
  // Netdata's `stream.conf`: `api key = <UUID>`, the key a child streams to its parent with.
  {
    id: 'config-password',
    pattern: /(?:^|\n)[ \t]*api key[ \t]*=[ \t]*([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})(?![\w-])/dg,
    gate: { keywords: ['api key'] },
  },
];
