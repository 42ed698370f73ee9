import { initialCertificate } from './certificate-lifecycle.js';
import {
  refuse,
  WORLD_LIMITS,
  type DomainState,
  type Outcome,
  type Plan,
  type Platform,
  type Project,
  type Redirect,
  type Refusal,
  type RequiredRecord,
} from './model.js';
import { checkName, isApex, isWithin, labelOf } from './names.js';

/**
 * Rule 1 after the fact: a verified domain whose project is downgraded to the free plan or loses
 * its successful deploy. The product spec states the gate only for adding a domain; platforms
 * differ on what follows. `keep-serving` (the default: nothing in the spec takes a served domain
 * away) serves on, `stop-serving` answers 404 with the gate's code until the gate holds again (the
 * domain stays attached and verified), `remove-domains` detaches every domain as Remove would.
 */
export const GATE_LOST = ['keep-serving', 'stop-serving', 'remove-domains'] as const;
export type GateLost = (typeof GATE_LOST)[number];

export interface RegistryDependencies {
  platform: Platform;
  gateLost: GateLost;
  now(): number;
  log(kind: string, subject: string | undefined, summary: string): void;
}

/** The DNS records the dashboard shows for a domain: CNAME for a subdomain, ALIAS/ANAME for an apex. */
export function requiredRecords(
  platform: Platform,
  project: Pick<Project, 'host'>,
  domain: Pick<DomainState, 'apex' | 'name'>,
): RequiredRecord[] {
  const record: RequiredRecord = domain.apex
    ? { type: 'ALIAS', alternatives: ['ANAME'], name: '@', value: project.host, ttl: platform.recordTtl }
    : { type: 'CNAME', alternatives: [], name: labelOf(domain.name), value: project.host, ttl: platform.recordTtl };
  return [record];
}

/**
 * The platform's projects and what the dashboard does with them without asking DNS: plan and
 * deploy (rule 1's gate), attaching, removing and moving domains, the primary domain and redirects.
 * Its state is its own; what it hands out is for reading.
 */
export class ProjectRegistry {
  readonly #projects = new Map<string, Project>();

  constructor(private readonly deps: RegistryDependencies) {}

  /** Adds (or replaces) a project with its default host `<id>.<platform domain>`. */
  add(input: { id: string; plan: Plan; deployed: boolean }): Project {
    const host = `${input.id}.${this.deps.platform.domain}`;
    const project: Project = { ...input, host, domains: new Map(), primary: undefined, redirects: [] };
    this.#projects.set(input.id, project);
    return project;
  }

  find(id: string): Outcome<Project> {
    const project = this.#projects.get(id);
    return project ? { ok: true, value: project } : refuse('project_not_found', `no project ${id}`);
  }

  list(): Project[] {
    return [...this.#projects.values()];
  }

  /** Every attached domain of every project. */
  domains(): DomainState[] {
    return this.list().flatMap((project) => [...project.domains.values()]);
  }

  /** The project `name` is attached to, if any. */
  ownerOf(name: string): Project | undefined {
    return this.list().find((project) => project.domains.has(name));
  }

  /** The domain `input` of the project, when attached (the name read as the dashboard reads it). */
  attached(projectId: string, input: string): Outcome<{ project: Project; domain: DomainState }> {
    const found = this.find(projectId);
    if (!found.ok) return found;
    const checked = checkName(input);
    const domain = checked.ok ? found.value.domains.get(checked.name) : undefined;
    if (!domain) return refuse('domain_not_found', `${input} is not attached to project ${projectId}`);
    return { ok: true, value: { project: found.value, domain } };
  }

  /** Rule 1: custom domains need a paid plan and a successful deploy. */
  gate(project: Project): Outcome<Project> {
    if (project.plan === 'free') return refuse('plan_required', 'custom domains need a paid plan (Pro or above)');
    if (!project.deployed)
      return refuse('no_successful_deploy', 'custom domains need a successful deploy of the project first');
    return { ok: true, value: project };
  }

  setPlan(projectId: string, plan: Plan): Outcome<Project> {
    const found = this.find(projectId);
    if (found.ok) {
      found.value.plan = plan;
      this.#afterGate(found.value);
    }
    return found;
  }

  setDeployed(projectId: string, deployed: boolean): Outcome<Project> {
    const found = this.find(projectId);
    if (found.ok) {
      found.value.deployed = deployed;
      this.#afterGate(found.value);
    }
    return found;
  }

  /** Carries out the world's gateLost policy when a project no longer passes rule 1's gate. */
  #afterGate(project: Project): void {
    const gate = this.gate(project);
    if (gate.ok || project.domains.size === 0) return;
    if (this.deps.gateLost === 'remove-domains') {
      for (const name of [...project.domains.keys()]) this.removeDomain(project.id, name);
      return;
    }
    this.deps.log(
      'domain.gate_lost',
      project.id,
      `${gate.code}: custom domains ${this.deps.gateLost === 'stop-serving' ? 'are not served until it is fixed' : 'keep being served'}`,
    );
  }

  /** The dashboard's "Add": checks plan, deploy and ownership, then shows the record to create. */
  addDomain(projectId: string, input: string): Outcome<{ domain: DomainState; records: RequiredRecord[] }> {
    const found = this.find(projectId);
    if (!found.ok) return found;
    const project = found.value;
    const checked = checkName(input);
    if (!checked.ok) return refuse('invalid_name', checked.reason);
    const gate = this.gate(project);
    if (!gate.ok) return gate;
    const name = checked.name;
    const refused = this.#attachRefusal(project, name);
    if (refused) return refused;
    const domain: DomainState = {
      name,
      unicode: checked.unicode,
      apex: isApex(name),
      addedAt: this.deps.now(),
      dns: {
        state: 'pending',
        reason: 'not_verified',
        message: 'create the DNS record shown, then use Verify',
        evidence: {},
      },
      certificate: initialCertificate(),
    };
    project.domains.set(name, domain);
    const records = requiredRecords(this.deps.platform, project, domain);
    const [first] = records;
    this.deps.log(
      'domain.added',
      name,
      `added to ${project.id}; create ${first!.type} ${first!.name} → ${first!.value}`,
    );
    return { ok: true, value: { domain, records } };
  }

  #attachRefusal(project: Project, name: string): Refusal | undefined {
    if (isWithin(name, this.deps.platform.domain))
      return refuse('platform_domain', `${name} belongs to the platform; add a domain you own`);
    const owner = this.ownerOf(name);
    if (owner === project) return refuse('already_added', `${name} is already attached to this project`);
    if (owner) return refuse('domain_taken', `${name} is already attached to another project`);
    if (project.domains.size >= WORLD_LIMITS.domainsPerProject)
      return refuse(
        'domain_limit',
        `a project holds at most ${WORLD_LIMITS.domainsPerProject} custom domains; remove one first`,
      );
    return undefined;
  }

  /** "Remove": the domain stops being served at once. */
  removeDomain(projectId: string, name: string): Outcome<DomainState> {
    const found = this.attached(projectId, name);
    if (!found.ok) return found;
    const { project, domain } = found.value;
    project.domains.delete(domain.name);
    if (project.primary === domain.name) project.primary = undefined;
    project.redirects = project.redirects.filter(
      (redirect) => redirect.from !== domain.name && redirect.to !== domain.name,
    );
    this.deps.log('domain.removed', domain.name, `removed from ${project.id}; no longer served`);
    return { ok: true, value: domain };
  }

  /**
   * Moves an attached domain to another project, as platforms offer it: DNS state and certificate
   * move with it (the platform holds both), primary and redirects stay behind. The target must pass
   * rule 1's gate. The CNAME the dashboard now shows is the target's host, so a CNAME still pointing
   * at the old project's host fails the next Re-verify (cname_mismatch).
   */
  moveDomain(projectId: string, name: string, targetId: string): Outcome<DomainState> {
    const found = this.attached(projectId, name);
    if (!found.ok) return found;
    const target = this.find(targetId);
    if (!target.ok) return target;
    const { project, domain } = found.value;
    if (target.value === project) return refuse('already_added', `${domain.name} is already attached to ${targetId}`);
    const gate = this.gate(target.value);
    if (!gate.ok) return gate;
    if (target.value.domains.size >= WORLD_LIMITS.domainsPerProject)
      return refuse('domain_limit', `${targetId} already holds ${WORLD_LIMITS.domainsPerProject} custom domains`);
    this.removeDomain(projectId, domain.name);
    target.value.domains.set(domain.name, domain);
    this.deps.log('domain.moved', domain.name, `moved from ${project.id} to ${targetId}; served by ${targetId}`);
    return { ok: true, value: domain };
  }

  setPrimary(projectId: string, name: string): Outcome<Project> {
    const found = this.attached(projectId, name);
    if (!found.ok) return found;
    const { project, domain } = found.value;
    if (project.redirects.some((redirect) => redirect.from === domain.name))
      return refuse('primary_is_redirected', `${domain.name} redirects elsewhere; remove that redirect first`);
    project.primary = domain.name;
    this.deps.log('domain.primary', domain.name, `primary domain of ${project.id}`);
    return { ok: true, value: project };
  }

  /** Adds `{from, to, status}`: both attached, status 301, and no loops or chains. */
  addRedirect(projectId: string, input: Redirect): Outcome<Project> {
    const from = this.attached(projectId, input.from);
    if (!from.ok) return from;
    const to = this.attached(projectId, input.to);
    if (!to.ok) return to;
    const project = from.value.project;
    const [source, target] = [from.value.domain.name, to.value.domain.name];
    const refused = redirectRefusal(project, source, target, input.status);
    if (refused) return refused;
    project.redirects.push({ from: source, to: target, status: 301 });
    this.deps.log('domain.redirect', source, `redirects to ${target} (301)`);
    return { ok: true, value: project };
  }

  removeRedirect(projectId: string, from: string): Outcome<Project> {
    const found = this.attached(projectId, from);
    if (!found.ok) return found;
    const project = found.value.project;
    const before = project.redirects.length;
    project.redirects = project.redirects.filter((redirect) => redirect.from !== found.value.domain.name);
    return before === project.redirects.length
      ? refuse('redirect_not_found', `${from} has no redirect`)
      : { ok: true, value: project };
  }
}

/** Why `source → target` cannot be added: the status, a loop, the primary, or a chain. */
function redirectRefusal(project: Project, source: string, target: string, status: number): Refusal | undefined {
  if (status !== 301)
    return refuse(
      'unsupported_redirect_status',
      `redirect status ${status} is not supported; the documented status is 301`,
    );
  if (source === target) return refuse('redirect_loop', `${source} cannot redirect to itself`);
  if (project.primary === source)
    return refuse('primary_cannot_redirect', `${source} is the primary domain; choose another primary first`);
  if (project.redirects.some((redirect) => redirect.from === source))
    return refuse('redirect_exists', `${source} already redirects`);
  if (project.redirects.some((redirect) => redirect.from === target && redirect.to === source))
    return refuse('redirect_loop', `${target} already redirects to ${source}`);
  if (project.redirects.some((redirect) => redirect.from === target || redirect.to === source))
    return refuse('redirect_chain', `redirects may not chain: ${source} → ${target} would join another redirect`);
  return undefined;
}
