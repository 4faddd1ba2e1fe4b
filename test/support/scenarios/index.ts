// Every recordable scenario, by name (`npm run record -- <name>` or `all`).
import { backgroundPermission, nestedPermission } from "./agentPermissions.js";
import { backgroundInterrupt } from "./backgroundInterrupt.js";
import { backgroundOneShot, backgroundSubagent } from "./backgroundSubagent.js";
import { deepNesting } from "./deepNesting.js";
import { hooksAndAgents } from "./hooksAndAgents.js";
import { interruptPendingPermission } from "./interruptPendingPermission.js";
import { interruptStreaming } from "./interruptStreaming.js";
import { interruptSubagent } from "./interruptSubagent.js";
import { messageDuringTurn } from "./messageDuringTurn.js";
import { nestedSubagents } from "./nestedSubagents.js";
import { parallelSubagents } from "./parallelSubagents.js";
import { partialMessages } from "./partialMessages.js";
import { partialMessagesBackground } from "./partialMessagesBackground.js";
import { permissions } from "./permissions.js";
import { permissionVariants } from "./permissionVariants.js";
import { resume } from "./resume.js";
import { sendMessageContinue, sendMessageQueuedResume, sendMessageRunning } from "./sendMessageContinue.js";
import { subagent } from "./subagent.js";
import { subagentApiErrors } from "./subagentApiErrors.js";
import { taskStop } from "./taskStop.js";
import type { Scenario } from "./types.js";
import { workflow } from "./workflow.js";

export const SCENARIOS: readonly Scenario[] = [
  subagent,
  parallelSubagents,
  backgroundSubagent,
  nestedSubagents,
  permissions,
  interruptSubagent,
  resume,
  hooksAndAgents,
  partialMessages,
  sendMessageContinue,
  subagentApiErrors,
  nestedPermission,
  backgroundPermission,
  interruptPendingPermission,
  messageDuringTurn,
  permissionVariants,
  interruptStreaming,
  partialMessagesBackground,
  sendMessageRunning,
  sendMessageQueuedResume,
  backgroundOneShot,
  deepNesting,
  taskStop,
  workflow,
  backgroundInterrupt,
];

export function findScenario(name: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}
