// The making of a live tab's session, before its CLI starts. Without a policy every request goes
// to the person (the broker). With one, the tab gets its SessionPolicy, which decides through the
// PreToolUse hook and asks the person for the rest; in orchestration mode also an escalation desk,
// whose MCP server goes to the CLI (sessionEscalations.ts), and a resumed session's Deliberate
// agents keep the phases its audit trail recorded.

import type { NewSessionOptions } from "../../shared/api.js";
import type { ClaudeClientOptions } from "../cli/claudeClient.js";
import type { PermissionDecider } from "../cli/permissionGate.js";
import type { AuditWithTrail } from "../history/index.js";
import type { EscalationDesk } from "../orchestration/escalationDesk.js";
import { phasesFromTrail } from "../orchestration/restoredPhases.js";
import type { LogBus } from "../platform/logBus.js";
import type { PolicyService } from "../policy/policyService.js";
import type { SessionPolicy } from "../policy/sessionPolicy.js";
import type { AuditReader, AuditTrail, ForkReader } from "../store/auditTrail.js";
import { LiveSession, type ClientFactory, type LiveSessionOptions } from "./liveSession.js";
import { DefaultPermissionGraceMs, type PermissionBroker } from "./permissionBroker.js";
import type { PolicyControl } from "./policyControl.js";
import { createSessionEscalations, DefaultConductorTimeoutMs, type SessionEscalations } from "./sessionEscalations.js";

/** What every live session is made with (SessionManagerOptions holds these). */
export interface LiveSessionSettings {
  readonly claudePath: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Where the CLI writes history: live tabs read their sidechains there. */
  readonly history?: { readonly projectsDir?: string };
  /** How long permission requests wait with no UI connected before they are denied. Default 30 s. */
  readonly permissionGraceMs?: number;
  /** Extra client options for every CLI (stop timeouts, partial messages, …). */
  readonly clientDefaults?: Partial<Omit<ClaudeClientOptions, "claudePath" | "cwd" | "env" | "decidePermission" | "log" | "tap">>;
  readonly createClient?: ClientFactory;
  /** Baton's audit trail (permission decisions, interrupts); absent without a store. */
  readonly audit?: AuditTrail;
  /** Presets, the person's rules and orchestration mode (issue 22); absent: the CLI's own permission flow only. */
  readonly policy?: PolicyService;
  /** Orchestration mode: how long the conductor has to answer a subagent before the person is asked. Default 120 s. */
  readonly conductorTimeoutMs?: number;
  /** A session's audit trail: a resumed session's agents keep the phases it recorded. */
  readonly readAudit?: AuditReader;
  /** Every fork Baton recorded: a resumed fork's tab names its origin. */
  readonly readForks?: ForkReader;
  /** How long after Stop a turn may still run before Baton kills its CLI. Default InterruptGraceMs (interruptSettling.ts). */
  readonly interruptGraceMs?: number;
}

export interface LiveSessionFactoryOptions {
  readonly settings: LiveSessionSettings;
  readonly log: LogBus;
  readonly broker: PermissionBroker;
  /** The person's hold on the policy: which rules a prompt may offer to keep. */
  readonly policyControl: PolicyControl | undefined;
  /** A tab's transcript changed. */
  readonly changed: (tabId: string) => void;
  /** A tab's escalation desk, made before its session: the manager closes it with the tab. */
  readonly addEscalations: (tabId: string, escalations: SessionEscalations) => void;
}

/** A live tab's session, not started, and the policy it decides by (closed after its CLI stops). */
export interface MadeSession {
  readonly session: LiveSession;
  readonly policy?: SessionPolicy;
}

/** A fork's start (sessionFork.ts): the session it continues, cut after `resumeAt` (none: a new session). */
export interface ForkStart {
  readonly sessionId: string;
  readonly resumeAt?: string;
  /** The sessions `sessionId` was forked from, as recorded: the agents of turns it copied may have run there. */
  readonly origins?: readonly string[];
}

/** What the policy and the desk ask of a session that does not exist yet when they are made. */
interface Making {
  live?: LiveSession;
  escalations?: SessionEscalations;
}

export class LiveSessionFactory {
  constructor(private readonly options: LiveSessionFactoryOptions) {}

  async make(tabId: string, request: NewSessionOptions, fork?: ForkStart): Promise<MadeSession> {
    const making: Making = {};
    const policy = this.policyFor(tabId, request, making);
    if (policy?.orchestration === true) {
      making.escalations = this.escalationsFor(tabId, policy, making);
      this.options.addEscalations(tabId, making.escalations);
    }
    const { escalations } = making;
    const desk = escalations?.desk;
    if (desk !== undefined && request.resumeSessionId !== undefined) await this.restorePhases(desk, request.resumeSessionId, tabId);
    const { settings } = this.options;
    const projectsDir = settings.history?.projectsDir;
    const session = new LiveSession({
      tabId,
      client: { ...this.clientOptions(request, policy, escalations), ...forkOptions(fork) },
      decidePermission: policy !== undefined ? policy.decider(this.personFor(tabId, request.cwd)) : this.options.broker.deciderFor(tabId),
      log: this.options.log,
      onChange: () => this.options.changed(tabId),
      ...(desk !== undefined ? { onApplied: () => desk.checkAgents((id) => making.live?.recordOfCall(id)?.status) } : {}),
      ...(settings.createClient ? { createClient: settings.createClient } : {}),
      ...(settings.audit ? { audit: settings.audit } : {}),
      ...(projectsDir !== undefined ? { projectsDir } : {}),
      // A fork shows the turns it copied: their agents' files are its origin's (or its origin's origins').
      ...(fork !== undefined ? { forkedFrom: fork.sessionId, ...(fork.origins !== undefined ? { originsOfOrigin: fork.origins } : {}) } : {}),
      ...(settings.interruptGraceMs !== undefined ? { interruptGraceMs: settings.interruptGraceMs } : {}),
    });
    making.live = session;
    return { session, ...(policy !== undefined ? { policy } : {}) };
  }

  /** The tab's policy, asking the session (once made) about its agents and the desk about their phases. */
  private policyFor(tabId: string, request: NewSessionOptions, making: Making): SessionPolicy | undefined {
    const { audit, policy } = this.options.settings;
    return policy?.forSession({
      cwd: request.cwd,
      agentType: (agentId) => making.live?.agentTypeOf(agentId),
      sessionId: () => making.live?.sessionId ?? request.resumeSessionId,
      ...(audit !== undefined ? { record: (entry) => audit.policyDecision(entry) } : {}),
      emit: (event) => making.live?.addEvent(event),
      phaseOf: (agentId) => {
        const desk = making.escalations?.desk;
        // An agent of a resumed session's earlier run goes by the Agent call that made it: this
        // run's model has no record of that call (a continuation's card sits on its SendMessage).
        const call = desk?.restoredCallOf(agentId) ?? making.live?.agentRecord(agentId)?.toolUseId;
        return call === undefined ? undefined : desk?.phaseOf(call);
      },
      onDeliberateSpawn: (toolUseId) => making.escalations?.desk.agentSpawned(toolUseId),
      log: (message, fields) => this.options.log.baton("warning", message, fields, tabId),
    });
  }

  private escalationsFor(tabId: string, policy: SessionPolicy, making: Making): SessionEscalations {
    const { settings, broker, log } = this.options;
    const audit = settings.audit;
    return createSessionEscalations({
      live: () => making.live,
      policy,
      conductorTimeoutMs: settings.conductorTimeoutMs ?? DefaultConductorTimeoutMs,
      graceMs: settings.permissionGraceMs ?? DefaultPermissionGraceMs,
      personPresent: () => broker.present,
      ...(audit !== undefined ? { record: (entry) => audit.policyDecision(entry) } : {}),
      log: (message, fields) => log.baton("info", message, fields, tabId),
    });
  }

  /**
   * Before a resumed session's CLI starts: its Deliberate agents' phases from the audit trail, so
   * one that never had a plan approved is still refused changes when SendMessage continues it.
   */
  private async restorePhases(desk: EscalationDesk, sessionId: string, tabId: string): Promise<void> {
    const { audit: trail, readAudit: read } = this.options.settings;
    await trail?.flush(); // what the earlier run wrote, all of it
    const audit = read === undefined ? undefined : ((await read(sessionId)) as AuditWithTrail | undefined);
    if (audit === undefined) {
      this.options.log.baton("warning", "no audit trail to restore the subagents' phases from: agents of the earlier runs are not held to their plans", { sessionId }, tabId);
      return;
    }
    desk.restorePhases(phasesFromTrail(audit.trail));
  }

  /** The CLI's options: the defaults, the policy's hooks, the request's own, Baton's MCP server in orchestration mode. */
  private clientOptions(request: NewSessionOptions, policy: SessionPolicy | undefined, escalations: SessionEscalations | undefined): LiveSessionOptions["client"] {
    const { settings } = this.options;
    const defaults = settings.clientDefaults;
    return {
      ...defaults,
      ...(policy !== undefined ? { initialize: policy.initialize(defaults?.initialize), onHookCallback: policy.hookHandler(defaults?.onHookCallback) } : {}),
      claudePath: settings.claudePath,
      cwd: request.cwd,
      ...(settings.env ? { env: settings.env } : {}),
      ...(request.permissionMode !== undefined ? { permissionMode: request.permissionMode } : {}),
      ...(request.model !== undefined ? { model: request.model } : {}),
      ...(request.resumeSessionId !== undefined ? { resume: request.resumeSessionId } : {}),
      ...(escalations !== undefined ? { mcpServers: [...(defaults?.mcpServers ?? []), escalations.server] } : {}),
    };
  }

  /** The person's side of a tab's requests: the broker, told which rules the prompt may offer. */
  private personFor(tabId: string, cwd: string): PermissionDecider {
    const policy = this.options.policyControl;
    return this.options.broker.deciderFor(tabId, policy === undefined ? undefined : (request) => policy.allowRulesFor(request.toolName, request.input, cwd));
  }
}

/** A fork's CLI arguments: `--resume <id> --fork-session --resume-session-at <uuid>`; a fork with no cut point is a new session. */
function forkOptions(fork: ForkStart | undefined): Partial<LiveSessionOptions["client"]> {
  if (fork?.resumeAt === undefined) return {};
  return { resume: fork.sessionId, forkSession: true, resumeSessionAt: fork.resumeAt };
}
