import type { DnsAnswer, QueryType, RecordData, RecordType, ResourceRecord } from './dns-types.js';
import { apexOf, isWithin } from './names.js';
import type { ProviderProfile } from './providers.js';
import { checkRecordData } from './record-data.js';
import { getPublicSuffix } from 'tldts';
import { dnskeyRecords, dsRecords, type DnssecState } from './dnssec.js';
import { negativeSoa, registrySoa, soaFor, type ZoneSoa } from './soa.js';

/** A record as its zone keeps it: when it was saved, when name servers answer with it, when it went. */
export interface ZoneRecord extends ResourceRecord {
  /** Only what users save: DS and DNSKEY come from the zone's DNSSEC state. */
  type: RecordType;
  id: number;
  savedAt: number;
  visibleAt: number;
  /** Set when removed: from then on the provider no longer answers with it. */
  goneAt?: number;
}

export interface Zone {
  apex: string;
  provider: ProviderProfile;
  records: ZoneRecord[];
  soa: ZoneSoa;
  /** Query types that fail (SERVFAIL) at this zone's name servers; `*` for every type. */
  failing: Set<QueryType | '*'>;
  /** The registration lapsed: the registry no longer delegates the zone, so its names do not exist. */
  lapsed?: boolean;
  /** DNSKEY at the provider and DS at the parent (dnssec.ts); absent: unsigned. */
  dnssec?: DnssecState;
}

/** A zone as readers see it: they ask DnsZones to change it. */
export type ReadonlyZone = Readonly<Omit<Zone, 'records' | 'failing'>> & {
  readonly records: readonly ZoneRecord[];
  readonly failing: ReadonlySet<QueryType | '*'>;
};

/** What resolvers, the verifier and the control API read of the zones: answers and saved records, no writes. */
export interface ReadonlyDnsZones {
  readonly nextRecordId: number;
  list(): readonly ReadonlyZone[];
  recordCount(): number;
  zoneFor(name: string): ReadonlyZone | undefined;
  saved(zone: ReadonlyZone): ZoneRecord[];
  record(id: number): { zone: ReadonlyZone; record: ZoneRecord } | undefined;
  servingApex(name: string): string | undefined;
  parentApex(apex: string): string | undefined;
  authoritative(name: string, type: QueryType, at: number): DnsAnswer;
}

export interface NewRecord {
  name: string;
  type: RecordType;
  data: unknown;
  ttl?: number;
  /** Already answered by the name servers (a record that predates the story), no publish delay. */
  published?: boolean;
}

export type ZoneChange = { ok: true; record: ZoneRecord } | { ok: false; code: string; message: string };

const MAX_CNAME_HOPS = 8;
/** The longest TTL a provider accepts for a record (7 days). */
export const MAX_TTL = 7 * 86_400;

function answer(
  rcode: DnsAnswer['rcode'],
  answers: ResourceRecord[] = [],
  authority: ResourceRecord[] = [],
): DnsAnswer {
  return { rcode, answers, authority };
}

/** `a.b.example.com` within `example.com` → [`b.example.com`, `example.com`]. */
function ancestors(name: string, apex: string): string[] {
  const found: string[] = [];
  for (let rest = name; rest !== apex && rest.endsWith(`.${apex}`);) {
    rest = rest.slice(rest.indexOf('.') + 1);
    found.push(rest);
  }
  return found;
}

function plain(record: ZoneRecord | ResourceRecord): ResourceRecord {
  return { name: record.name, type: record.type, ttl: record.ttl, data: record.data };
}

/**
 * Every simulated zone, each at its DNS provider: the authoritative truth at any instant. Records
 * become visible after the provider's publish delay and vanish when removed; nothing here caches.
 */
export class DnsZones implements ReadonlyDnsZones {
  readonly #zones = new Map<string, Zone>();
  #nextId: number;

  /** `firstRecordId` lets a replacement world keep record ids unique across resets. */
  constructor(firstRecordId = 1) {
    this.#nextId = firstRecordId;
  }

  /** The id the next saved record will get. */
  get nextRecordId(): number {
    return this.#nextId;
  }

  /** Creates (or replaces) the zone of `apex`, hosted at `provider`. */
  addZone(apex: string, provider: ProviderProfile): Zone {
    const zone: Zone = { apex, provider, records: [], soa: soaFor(apex, provider), failing: new Set() };
    this.#zones.set(apex, zone);
    return zone;
  }

  list(): Zone[] {
    return [...this.#zones.values()];
  }

  /** How many records the zones keep saved (removed ones still being unpublished not counted). */
  recordCount(): number {
    let count = 0;
    for (const zone of this.#zones.values()) count += this.saved(zone).length;
    return count;
  }

  /** The zone that holds `name`: the longest apex it lies within. */
  zoneFor(name: string): Zone | undefined {
    let best: Zone | undefined;
    for (const zone of this.#zones.values())
      if (isWithin(name, zone.apex) && (!best || zone.apex.length > best.apex.length)) best = zone;
    return best;
  }

  /** Records of `zone` the name servers answer with at `at`. */
  visible(zone: ReadonlyZone, at: number): ZoneRecord[] {
    return zone.records.filter(
      (record) => record.visibleAt <= at && (record.goneAt === undefined || record.goneAt > at),
    );
  }

  /** Records saved and not removed (what the provider's dashboard lists), visible yet or not. */
  saved(zone: ReadonlyZone): ZoneRecord[] {
    return zone.records.filter((record) => record.goneAt === undefined);
  }

  /** Saves a record as the provider would, refusing what it refuses. */
  addRecord(input: NewRecord, now: number): ZoneChange {
    const zone = this.zoneFor(input.name);
    if (!zone) return { ok: false, code: 'no_such_zone', message: `no simulated zone holds ${input.name}` };
    const checked = checkRecordData(input.type, input.data);
    if (!checked.ok) return { ok: false, code: 'invalid_record', message: checked.reason };
    const ttl = input.ttl ?? zone.provider.defaultTtl;
    if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TTL)
      return { ok: false, code: 'invalid_record', message: `TTL must be an integer from 1 to ${MAX_TTL} seconds` };
    const refusal = this.#refusal(zone, input.name, input.type, checked.data);
    if (refusal) return refusal;
    const record: ZoneRecord = {
      id: this.#nextId++,
      name: input.name,
      type: input.type,
      ttl,
      data: checked.data,
      savedAt: now,
      visibleAt: input.published ? now : now + zone.provider.publishDelayMs,
    };
    this.forget(now);
    zone.records.push(record);
    return { ok: true, record };
  }

  #refusal(zone: Zone, name: string, type: RecordType, data: RecordData): ZoneChange | undefined {
    const provider = zone.provider;
    if (type === 'CNAME' && name === zone.apex)
      return {
        ok: false,
        code: 'cname_at_apex',
        message: `a CNAME cannot sit at the zone apex ${name} (its SOA and NS records live there); use ALIAS/ANAME`,
      };
    if (type === 'ALIAS' && !provider.supportsAlias)
      return { ok: false, code: 'alias_unsupported', message: `${provider.name} does not offer ALIAS/ANAME records` };
    const here = this.saved(zone).filter((record) => record.name === name);
    if (here.some((record) => record.type === type && JSON.stringify(record.data) === JSON.stringify(data)))
      return { ok: false, code: 'duplicate_record', message: `${name} already has this ${type} record` };
    const conflict = type === 'CNAME' ? here.length > 0 : here.some((record) => record.type === 'CNAME');
    if (conflict && provider.cnameWithOtherData === 'reject') {
      return {
        ok: false,
        code: 'cname_conflict',
        message: `${provider.name} refuses a CNAME next to other records at ${name} (RFC 1034: a CNAME stands alone)`,
      };
    }
    if (type === 'CNAME' && here.some((record) => record.type === 'CNAME'))
      return { ok: false, code: 'cname_conflict', message: `${name} already has a CNAME` };
    return undefined;
  }

  /**
   * Removes the saved records of `name` (of `type`, with `data` when given). The provider's
   * dashboard drops them at once; its name servers stop answering with them after the publish
   * delay, like an addition. A record removed before it was ever published is never answered.
   */
  removeRecords(match: { name: string; type?: RecordType; data?: unknown }, now: number): ZoneRecord[] {
    const zone = this.zoneFor(match.name);
    if (!zone) return [];
    const removed = this.saved(zone).filter(
      (record) =>
        record.name === match.name &&
        (match.type === undefined || record.type === match.type) &&
        (match.data === undefined || JSON.stringify(record.data) === JSON.stringify(match.data)),
    );
    for (const record of removed) record.goneAt = record.visibleAt > now ? now : now + zone.provider.publishDelayMs;
    this.forget(now);
    return removed;
  }

  /**
   * Drops records no name server will answer with again (removed, their delay passed): time only
   * moves forward, so the zones stay as small as what is saved plus what is still being unpublished.
   */
  forget(now: number): void {
    for (const zone of this.#zones.values())
      if (zone.records.some((record) => record.goneAt !== undefined && record.goneAt <= now))
        zone.records = zone.records.filter((record) => record.goneAt === undefined || record.goneAt > now);
  }

  /** The saved record with this id, and its zone. */
  record(id: number): { zone: Zone; record: ZoneRecord } | undefined {
    for (const zone of this.#zones.values()) {
      const record = this.saved(zone).find((candidate) => candidate.id === id);
      if (record) return { zone, record };
    }
    return undefined;
  }

  /** Whether `zone` or the zone of its registered domain lapsed (the registry answers for both then). */
  #lapsed(zone: Zone): boolean {
    return zone.lapsed === true || this.#zones.get(apexOf(zone.apex))?.lapsed === true;
  }

  /** Makes a zone's name servers fail queries of `type` (or all) until healed. */
  setFailing(apex: string, types: readonly (QueryType | '*')[]): void {
    const zone = this.#zones.get(apex);
    if (zone) zone.failing = new Set(types);
  }

  /** Lapses or renews the registration of a zone's domain: a lapsed one is not delegated. */
  setLapsed(apex: string, lapsed: boolean): void {
    const zone = this.#zones.get(apex);
    if (zone) zone.lapsed = lapsed;
  }

  /** Sets a zone's DNSSEC state: its provider signs it or not, its registrar publishes a DS or not. */
  setDnssec(apex: string, state: DnssecState): void {
    const zone = this.#zones.get(apex);
    if (zone) zone.dnssec = state;
  }

  /** The apex of the zone whose name servers answer for `name` (undefined: the registry's). */
  servingApex(name: string): string | undefined {
    const zone = this.zoneFor(name);
    return zone && !this.#lapsed(zone) ? zone.apex : undefined;
  }

  /** The zone that delegates `apex` (undefined: the registry of its public suffix). */
  parentApex(apex: string): string | undefined {
    const dot = apex.indexOf('.');
    return dot < 0 ? undefined : this.servingApex(apex.slice(dot + 1));
  }

  /** What the authoritative name servers answer at `at`, following CNAMEs and flattening ALIAS. */
  authoritative(name: string, type: QueryType, at: number): DnsAnswer {
    return this.#resolve(name, type, at, new Set());
  }

  #resolve(name: string, type: QueryType, at: number, seen: Set<string>): DnsAnswer {
    const zone = this.zoneFor(name);
    if (!zone || this.#lapsed(zone)) return this.#outside(name);
    if (type === 'DS' && name === zone.apex) return this.#delegationSigner(zone);
    if (zone.failing.has('*') || zone.failing.has(type) || (type === 'CAA' && zone.provider.caaQueries === 'servfail'))
      return answer('SERVFAIL');
    const visible = this.visible(zone, at);
    if (isBelowLameCut(visible, zone.apex, name, type)) return answer('SERVFAIL');
    if (type === 'DNSKEY' && name === zone.apex && zone.dnssec) {
      const keys = dnskeyRecords(zone.apex, zone.dnssec);
      if (keys.length > 0) return answer('NOERROR', keys);
    }
    const dname = redirectingDname(visible, zone.apex, name);
    if (dname) return this.#synthesise(dname, name, type, at, seen);
    const exists = (owner: string) =>
      owner === zone.apex || visible.some((record) => record.name === owner || record.name.endsWith(`.${owner}`));
    let here = visible.filter((record) => record.name === name);
    if (!exists(name)) {
      // RFC 4592: the closest encloser is the longest existing ancestor (an empty non-terminal
      // counts as existing); only its `*` child may stand in for the asked name.
      const encloser = ancestors(name, zone.apex).find(exists)!;
      here = visible.filter((record) => record.name === `*.${encloser}`).map((record) => ({ ...record, name }));
      if (here.length === 0) return answer('NXDOMAIN', [], [negativeSoa(zone.soa)]);
    }
    // Records of the asked type win over a CNAME: that is how a provider that tolerates
    // CNAME-and-other-data answers, and why such a conflict breaks verification.
    const matching =
      type === 'SOA' && name === zone.apex ? [zone.soa] : here.filter((record) => record.type === type).map(plain);
    if (matching.length > 0) return answer('NOERROR', matching);
    const cname = here.find((record) => record.type === 'CNAME');
    if (cname) return this.#follow(cname, type, at, seen);
    const alias = here.find((record) => record.type === 'ALIAS');
    if (alias && (type === 'A' || type === 'AAAA')) return this.#flatten(alias, type, at, seen);
    return answer('NOERROR', [], [negativeSoa(zone.soa)]);
  }

  /**
   * RFC 6672 §3.1: below a DNAME owner, the answer is the DNAME, a CNAME synthesised from it (the
   * asked name with the owner replaced by the target, the DNAME's TTL), then the target's answer.
   */
  #synthesise(dname: ZoneRecord, name: string, type: QueryType, at: number, seen: Set<string>): DnsAnswer {
    const target = `${name.slice(0, -dname.name.length)}${dname.data as string}`;
    // RFC 6672 §3.1 step 3: the DNAME is copied into the answer, then a substitution longer than a
    // name may be (253 characters, 255 octets on the wire) ends the answer with YXDOMAIN.
    if (target.length > 253) return answer('YXDOMAIN', [plain(dname)]);
    const cname: ZoneRecord = { ...dname, name, type: 'CNAME', data: target };
    const followed = type === 'CNAME' ? answer('NOERROR', [plain(cname)]) : this.#follow(cname, type, at, seen);
    if (followed.rcode === 'SERVFAIL') return followed;
    return { ...followed, answers: [plain(dname), ...followed.answers] };
  }

  #follow(cname: ZoneRecord, type: QueryType, at: number, seen: Set<string>): DnsAnswer {
    if (seen.has(cname.name) || seen.size >= MAX_CNAME_HOPS) return answer('SERVFAIL');
    seen.add(cname.name);
    const rest = this.#resolve(cname.data as string, type, at, seen);
    return {
      rcode: rest.rcode,
      answers: rest.rcode === 'SERVFAIL' ? [] : [plain(cname), ...rest.answers],
      authority: rest.authority,
    };
  }

  #flatten(alias: ZoneRecord, type: 'A' | 'AAAA', at: number, seen: Set<string>): DnsAnswer {
    if (seen.has(alias.name) || seen.size >= MAX_CNAME_HOPS) return answer('SERVFAIL');
    seen.add(alias.name);
    const target = this.#resolve(alias.data as string, type, at, seen);
    if (target.rcode === 'SERVFAIL') return answer('SERVFAIL');
    const addresses = target.answers
      .filter((record) => record.type === type)
      .map((record) => ({ name: alias.name, type, ttl: Math.min(alias.ttl, record.ttl), data: record.data }));
    const zone = this.zoneFor(alias.name)!;
    return addresses.length > 0 ? answer('NOERROR', addresses) : answer('NOERROR', [], [negativeSoa(zone.soa)]);
  }

  /** A zone's DS set, answered by its parent (RFC 4034 §5): the enclosing zone's servers, or the registry's. */
  #delegationSigner(zone: Zone): DnsAnswer {
    const ds = dsRecords(zone.apex, zone.dnssec ?? 'unsigned');
    if (ds.length > 0) return answer('NOERROR', ds);
    const parentApex = this.parentApex(zone.apex);
    const parent = parentApex === undefined ? undefined : this.#zones.get(parentApex);
    const suffix = getPublicSuffix(zone.apex) ?? zone.apex.split('.').at(-1)!;
    return answer('NOERROR', [], [negativeSoa(parent ? parent.soa : registrySoa(suffix))]);
  }

  /** Names outside every simulated zone: public suffixes exist (no data), anything else does not. */
  #outside(name: string): DnsAnswer {
    const suffix = getPublicSuffix(name) ?? name.split('.').at(-1)!;
    const soa = negativeSoa(registrySoa(suffix));
    return answer(name === suffix ? 'NOERROR' : 'NXDOMAIN', [], [soa]);
  }
}

/**
 * Whether `name` lies at or below a zone cut of `zone` (NS records below its apex) that no simulated
 * zone serves: resolvers follow the referral (RFC 1034 §4.3.2 step 3b) to name servers that do not
 * answer for it, a lame delegation, and give up with SERVFAIL (RFC 1034 §5.3.3). A simulated zone at
 * the cut is found first (zoneFor prefers the longest apex), so reaching here means nobody serves it.
 * Records saved in the parent below the cut are occluded. DS at the cut is the parent's (RFC 4034 §5).
 */
function isBelowLameCut(visible: readonly ZoneRecord[], apex: string, name: string, type: QueryType): boolean {
  return visible.some(
    (record) =>
      record.type === 'NS' &&
      record.name !== apex &&
      (name.endsWith(`.${record.name}`) || (name === record.name && type !== 'DS')),
  );
}

/** The DNAME at the highest proper ancestor of `name` in the zone (a resolver meets it first going down; its own name is not redirected). */
function redirectingDname(visible: readonly ZoneRecord[], apex: string, name: string): ZoneRecord | undefined {
  return visible
    .filter((record) => record.type === 'DNAME' && name.endsWith(`.${record.name}`) && isWithin(record.name, apex))
    .sort((a, b) => a.name.length - b.name.length)[0];
}
