import { checkName } from './names.js';
import type { AnswerType, CaaData, MxData, RecordData, RecordType } from './dns-types.js';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIPv4(value: string): boolean {
  return IPV4.test(value);
}

/** IPv6 syntax as the WHATWG URL parser reads it (no I/O, unlike node:net). */
function isIPv6(value: string): boolean {
  if (!value.includes(':')) return false;
  try {
    return new URL(`http://[${value}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

export type DataCheck = { ok: true; data: RecordData } | { ok: false; reason: string };

function targetName(value: unknown, type: RecordType): DataCheck {
  if (typeof value !== 'string') return { ok: false, reason: `${type} value must be a host name` };
  const checked = checkName(value);
  return checked.ok
    ? { ok: true, data: checked.name }
    : { ok: false, reason: `${type} value ${JSON.stringify(value)}: ${checked.reason}` };
}

function caa(value: unknown): DataCheck {
  const data = value as Partial<CaaData> | undefined;
  if (!data || typeof data !== 'object') return { ok: false, reason: 'CAA value must be {flags, tag, value}' };
  if (!Number.isInteger(data.flags) || data.flags! < 0 || data.flags! > 255)
    return { ok: false, reason: 'CAA flags must be an integer from 0 to 255' };
  if (typeof data.tag !== 'string' || !/^[A-Za-z0-9]{1,15}$/.test(data.tag))
    return { ok: false, reason: 'CAA tag must be 1 to 15 letters or digits' };
  if (typeof data.value !== 'string') return { ok: false, reason: 'CAA value must be a string' };
  return { ok: true, data: { flags: data.flags!, tag: data.tag, value: data.value } };
}

function mx(value: unknown): DataCheck {
  const data = value as Partial<MxData> | undefined;
  if (!data || typeof data !== 'object' || !Number.isInteger(data.preference))
    return { ok: false, reason: 'MX value must be {preference, exchange}' };
  const exchange = targetName(data.exchange, 'MX');
  return exchange.ok
    ? { ok: true, data: { preference: data.preference!, exchange: exchange.data as string } }
    : exchange;
}

/** Checks and normalises the data of a record the user saves (SOA is the provider's, never saved). */
export function checkRecordData(type: RecordType, value: unknown): DataCheck {
  switch (type) {
    case 'A':
      return typeof value === 'string' && isIPv4(value)
        ? { ok: true, data: value }
        : { ok: false, reason: `A value ${JSON.stringify(value)} is not an IPv4 address` };
    case 'AAAA':
      return typeof value === 'string' && isIPv6(value)
        ? { ok: true, data: value.toLowerCase() }
        : { ok: false, reason: `AAAA value ${JSON.stringify(value)} is not an IPv6 address` };
    case 'CNAME':
    case 'ALIAS':
    case 'NS':
    case 'DNAME':
      return targetName(value, type);
    case 'TXT':
      return typeof value === 'string' && value.length <= 4000
        ? { ok: true, data: value }
        : { ok: false, reason: 'TXT value must be a string of at most 4000 characters' };
    case 'CAA':
      return caa(value);
    case 'MX':
      return mx(value);
    case 'SOA':
      return { ok: false, reason: 'SOA records belong to the provider and cannot be edited' };
  }
}

/** A record's data as a zone file would show it. */
export function dataText(type: AnswerType, data: RecordData): string {
  if (typeof data === 'string') return type === 'TXT' ? JSON.stringify(data) : data;
  if ('tag' in data) return `${data.flags} ${data.tag} ${JSON.stringify(data.value)}`;
  if ('exchange' in data) return `${data.preference} ${data.exchange}`;
  if ('key' in data) return `${data.flags} 3 ${data.algorithm} ${data.key}`;
  if ('digest' in data) return `${data.keyTag} ${data.algorithm} ${data.digestType} ${data.digest}`;
  return `${data.mname} ${data.rname} ${data.serial} ${data.refresh} ${data.retry} ${data.expire} ${data.minimum}`;
}

/** `name TYPE data`: a record as timelines and expectations show it (no TTL, which counts down). */
export function recordText(record: { name: string; type: AnswerType; data: RecordData }): string {
  return `${record.name} ${record.type} ${dataText(record.type, record.data)}`;
}
