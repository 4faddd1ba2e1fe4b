// The system prompts of the built-in presets, one per character (Exploratory: explore and report;
// Deliberate: clarifying → review → executing, with what to do in each phase), for Claude Code. A
// Deliberate subagent asks the conductor with Baton's ask_conductor tool and submits its plan with
// submit_plan (issue 24); each call waits for the answer or the review. What it may use before
// approval comes from beforeApproval.ts, the table the policy enforces. Each prompt states the
// preset's sandbox, so the model knows its limits before it meets a denial: its npm commands too
// (npmCommands.ts).
import type { CommandPattern, RefusedCommand } from "../../../shared/policy.js";
import { batonToolId } from "../../mcp/batonTools.js";
import { ToolsBeforeApproval } from "./beforeApproval.js";
import { npmTwinsShown, runsProgram } from "./npmCommands.js";

export interface PromptParts {
  readonly name: string;
  readonly role: string;
  readonly tools: readonly string[];
  readonly exec: readonly CommandPattern[];
  readonly spawns?: readonly string[];
  readonly refused: readonly RefusedCommand[];
}

export function exploratoryPrompt(parts: PromptParts): string {
  return [
    `${introduction(parts)} ${parts.role}`,
    sandbox(parts, "You cannot write or edit files."),
    "Explore and return findings. Use your best judgment when you meet ambiguity: take the most plausible reading, say which one you took, and carry on rather than stopping to ask.",
    [
      "Your final message is your report; the conductor sees nothing else of your work:",
      "- the answer first, in a few sentences;",
      "- then the evidence: file paths with line numbers, commands and their output, URLs, short quotes;",
      "- then what you could not find or are unsure of.",
      "Keep it short: findings, not a transcript.",
    ].join("\n"),
  ].join("\n\n");
}

export function deliberatePrompt(parts: PromptParts): string {
  return [
    `${introduction(parts)} ${parts.role}`,
    sandbox(parts, "You may write only inside your working directory (the session's folder, or your worktree); a write anywhere else is refused."),
    "You work in three phases.",
    [
      "PHASE 1: CLARIFYING",
      "Understand the task fully before you change anything. Work out:",
      "1. What is the exact goal?",
      "2. What are the constraints and the acceptance criteria?",
      "3. Which files matter?",
      "Read the code to answer these yourself where you can. Whatever you cannot answer, ask the conductor with the " +
        `${batonToolId("ask_conductor")} tool: its result is the answer. Do not write code or make changes yet.`,
      `Until your plan is approved you may use only reading and asking tools (${ToolsBeforeApproval.filter((t) => parts.tools.includes(t)).join(", ")}${parts.tools.includes("Bash") ? ", and Bash for read-only commands" : ""}); anything else is refused.`,
    ].join("\n"),
    [
      "PHASE 2: REVIEW",
      `Submit your plan with the ${batonToolId("submit_plan")} tool: a one-sentence goal and numbered steps, each small enough to check. It waits for the review:`,
      "- approved: its result is the plan to follow (the reviewer may have edited it): go to phase 3;",
      "- rejected: its result gives the feedback: revise the plan and submit it again.",
      "Change nothing while you wait.",
    ].join("\n"),
    [
      "PHASE 3: EXECUTING",
      "Once the plan is approved, execute it step by step with your tools. Do not deviate from the plan without asking: if it turns out to be wrong, stop and report why, with a revised plan. Verify your work with the commands you may run before you finish.",
      "Your final message is your report: what you changed (files), how you verified it (commands and their results), and what is left undone.",
    ].join("\n"),
  ].join("\n\n");
}

function introduction(parts: PromptParts): string {
  const article = /^[aeiou]/i.test(parts.name) ? "an" : "a";
  return `You are ${article} ${parts.name} subagent working for a conductor agent.`;
}

/** The limits Baton enforces on every call, in words: tools, commands, writes, spawns. */
function sandbox(parts: PromptParts, writes: string): string {
  const lines = [`Your tools: ${parts.tools.join(", ")}. Any other tool is refused.`];
  if (parts.exec.length === 0) lines.push("You cannot run shell commands.");
  else {
    lines.push(
      `Bash runs only these commands (a command named alone takes any arguments): ${parts.exec.flatMap(spelledOut).join(", ")}. Every command in a line must be on this list, including those in pipes, \`&&\` chains and substitutions.`,
    );
  }
  const npm = npmSentence(parts.exec);
  if (npm !== undefined) lines.push(npm);
  lines.push(writes);
  for (const reason of new Set(parts.refused.map((r) => r.reason))) lines.push(`${reason}.`);
  const spawns = parts.spawns ?? [];
  lines.push(spawns.length === 0 ? "You cannot start other agents." : `You may start these subagents, and no others: ${spawns.join(", ")}.`);
  lines.push("A refused call says why. Do not try to work around it: do what you can, and say in your report what needs another preset.");
  return lines.join("\n");
}

/** The npm commands the preset's pnpm patterns give it (npmCommands.ts), and how npm must be written to run. */
function npmSentence(exec: readonly CommandPattern[]): string | undefined {
  const twins = npmTwinsShown(exec);
  if (twins.length === 0) return undefined;
  const scripts = twins.filter((t) => !runsProgram(t)).flatMap((t) => (t === "npm run" ? ["`npm run <script>`"] : spelledOut(t)));
  const programs = twins.filter(runsProgram);
  const parts: string[] = [];
  if (scripts.length > 0) parts.push(`${scripts.join(", ")} (and npm's short forms, such as \`npm t\`)`);
  if (programs.length > 0) {
    const named = programs.some((p) => p === "npx" || p === "npm exec") ? "`npx <program>` or `npm exec <program>`" : programs.flatMap(spelledOut).join(", ");
    parts.push(`${named} only for a program the project already has in node_modules/.bin (npm would fetch and install any other)`);
  }
  return [
    `In an npm project you may also run ${parts.join("; and ")}.`,
    "Write npm's command first and the script's or program's own options after `--` (`npm test -- --watch=false`): npm takes only quiet options of its own (--silent, --if-present, --ignore-scripts) and refuses those that move it elsewhere (--prefix, -g, --workspace).",
  ].join(" ");
}

/** `"go test|vet"` → `` `go test` ``, `` `go vet` ``. */
function spelledOut(pattern: CommandPattern): string[] {
  let spelled = [""];
  for (const word of pattern.split(" ")) {
    const alternatives = word.split("|");
    spelled = spelled.flatMap((head) => alternatives.map((alt) => (head === "" ? alt : `${head} ${alt}`)));
  }
  return spelled.map((command) => `\`${command}\``);
}
