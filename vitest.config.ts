import { defineConfig } from "vitest/config";

// Three projects: fast pure tests; tests that drive the real `claude` CLI (and Chromium) against
// the scripted model server on the CLI people run today; and a smaller set of those again on the
// oldest CLI Baton supports (src/shared/testedCliVersions.ts). test/support/cliEnv.ts picks the
// binary from BATON_TEST_CLI, and the project names say which CLI a failure ran on.
// `BATON_TEST_CLI=2.1.197 npx vitest run …` runs every integration test on 2.1.197 instead.
const integration = {
  environment: "node",
  testTimeout: 120_000,
  hookTimeout: 120_000,
  maxWorkers: 2,
  sequence: { groupOrder: 1 },
} as const;

/** The protocol client and the restore/history tests that drive the CLI: where the versions differ. */
const onBothClis = [
  "test/integration/client*.test.ts",
  "test/integration/appHistory.test.ts",
  "test/integration/historyLive.test.ts",
  "test/integration/appLiveSidechain.test.ts",
  // The policy engine through the PreToolUse hook: it must hold on every CLI Baton runs.
  "test/integration/policyEnforcement.test.ts",
  // Baton's in-process MCP server (its agent tools) over the control protocol.
  "test/integration/mcpSdkServer.test.ts",
  // Only the conductor approves a plan (issue 31, N1): the hook's agent naming on every CLI.
  "test/integration/conductorOnly.test.ts",
  // A preset agent's Bash in the OS sandbox through the hook's updatedInput (issue 31).
  "test/integration/sandboxEnforcement.test.ts",
  // Where each CLI puts an agent's worktree and what it keeps (docs/protocol-notes.md).
  "test/integration/worktreeAgent.test.ts",
  // `baton claude`'s hooks: which events each CLI fires for a terminal session (issue 35).
  "test/integration/terminalHooks.test.ts",
  // The interactive CLI in tmux, steered from Baton's window and alone (issue 35).
  "test/integration/terminalTmux.test.ts",
  // A CLI killed mid-turn or with a request waiting, then resumed: what each CLI kept on disk differs (issue 36).
  "test/integration/faultCliDeath.test.ts",
  "test/integration/faultCliPermission.test.ts",
  // Fork from a prompt (issue 37): --resume-session-at and what each CLI copies into the fork.
  "test/integration/appForkSession.test.ts",
  // A fork's link across a restart: from Baton's audit trail, since neither CLI's fork file names its origin (issue 37).
  "test/integration/appForkRestart.test.ts",
  "test/integration/uiForkRestart.test.ts",
  // The plan's limits (issue 37): 2.1.197 reports the deciding window's status only, no utilization.
  "test/integration/planLimits.test.ts",
  "test/integration/uiPlanLimits.test.ts",
  // A restored session's shares: what each CLI writes of its calls' usage in the session's files.
  "test/integration/appRestoredShares.test.ts",
  "test/integration/uiRestoredShares.test.ts",
  // Rewind files to a prompt: the CLI's checkpoints and what each version writes of them (issue 37).
  "test/integration/appRewindFiles.test.ts",
  "test/integration/uiRewind.test.ts",
  // A rewind's mark across a restart: from Baton's audit trail, since neither CLI writes a rewind to the session's file.
  "test/integration/appRewindRestart.test.ts",
  // A session in its own worktree (issue 37): Baton makes it, the CLI runs and keeps its history there.
  "test/integration/sessionWorktree.test.ts",
  // A fork of a worktree session in a new worktree: each CLI finds the original in another project folder (issue 37).
  "test/integration/appForkWorktree.test.ts",
  // A fork in a new worktree reopened, and its fork: the copied agents' files found through the recorded origins.
  "test/integration/appForkWorktreeAgents.test.ts",
  // A fork's copied Workflow card: the run's folder stays in the origin's, on each CLI.
  "test/integration/appForkWorkflow.test.ts",
  // A search hit in a live tab lands on it: the session's file read aside as each CLI writes it.
  "test/integration/uiSearchLandsLive.test.ts",
];

/** Tests that cannot pass on 2.1.332 yet; each says why in its header. Run only on 2.1.197. */
const pinnedTo2_1_197: string[] = [
];

/**
 * Recording-driven unit tests that also run over the 2.1.332 recordings (fixtures/recordings-2.1.332,
 * BATON_RECORDINGS in test/support/recordings.ts): the protocol client, the hub's routing, the
 * restore, and the history readers' tests built on one recording's files (containment, the
 * session list, Workflow runs), which read its ids and prompts from it (test/support/recordedFacts.ts),
 * and auditRestore (with Baton's audit trail, a call an interrupt cut is stopped, live and restored).
 */
const onBothRecordingSets = [
  "test/unit/cliRecordings.test.ts",
  "test/unit/hubRecordings.test.ts",
  "test/unit/historyRestore.test.ts",
  "test/unit/auditRestore.test.ts",
  "test/unit/storeRecordings.test.ts",
  "test/unit/replayCommand.test.ts",
  "test/unit/damagedLines.test.ts",
  "test/unit/historyContainment.test.ts",
  "test/unit/historySessionList.test.ts",
  "test/unit/historyWorkflowRun.test.ts",
  "test/unit/sendMessageContinuation.test.ts",
];

/** The CLI of the main integration project: 2.1.332, or BATON_TEST_CLI for a whole run on another. */
const mainCli = process.env["BATON_TEST_CLI"] || "2.1.332";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "recordings-2.1.332",
          include: onBothRecordingSets,
          environment: "node",
          env: { BATON_RECORDINGS: "2.1.332" },
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...integration,
          name: `cli-${mainCli}`,
          include: ["test/integration/**/*.test.ts"],
          ...(mainCli === "2.1.197" ? {} : { exclude: pinnedTo2_1_197 }),
          env: { BATON_TEST_CLI: mainCli },
        },
      },
      // The second run on 2.1.197, unless the main one already is.
      ...(mainCli === "2.1.197"
        ? []
        : [
            {
              test: {
                ...integration,
                name: "cli-2.1.197",
                include: [...new Set([...onBothClis, ...pinnedTo2_1_197])],
                env: { BATON_TEST_CLI: "2.1.197" },
                // After the main run, so the two never compete for the CLI's cores.
                sequence: { groupOrder: 2 },
              },
            },
          ]),
    ],
  },
});
