// The tools Baton gives the agents (issue 24), on one in-process MCP server named "baton":
// ask_conductor and submit_plan for a Deliberate subagent, answer_subagent and
// review_subagent_plan for the conductor, which names the agent by its agent id (`agent`). What
// answers them is the caller's: the handlers are injected, so this file
// only says what the model sees and checks what it sends.

import { z } from "zod";
import { createMcpServer, type McpLogger, type McpServer } from "./mcpServer.js";
import { defineTool, type ToolCallContext, type ToolOutcome } from "./toolRegistry.js";

export const BatonMcpServerName = "baton";

export const BatonToolNames = ["ask_conductor", "submit_plan", "answer_subagent", "review_subagent_plan"] as const;
export type BatonToolName = (typeof BatonToolNames)[number];

/** The name the model calls a tool by: `mcp__baton__ask_conductor`. */
export function batonToolId(tool: BatonToolName): string {
  return `mcp__${BatonMcpServerName}__${tool}`;
}

const nonEmpty = (description: string) => z.string().trim().min(1).describe(description);

export const AskConductorInput = z.object({
  question: nonEmpty("A clarifying question for the conductor about the task requirements, constraints, or approach."),
});
export const SubmitPlanInput = z.object({
  goal: nonEmpty("One-sentence goal of the task"),
  steps: z.array(nonEmpty("One step")).min(1).describe("Ordered implementation steps"),
});
export const AnswerSubagentInput = z.object({
  agent: nonEmpty("The subagent that asked the question (its agent id, as the question names it)"),
  answer: nonEmpty("Your answer to the subagent's question"),
});
export const ReviewSubagentPlanInput = z.object({
  agent: nonEmpty("The subagent that submitted the plan (its agent id, as the plan names it)"),
  decision: z.enum(["approved", "rejected"]).describe("approved: the subagent may execute the plan; rejected: it revises and submits again"),
  feedback: z.string().optional().describe("What to change (when rejected), or notes for the approved plan"),
});

export type AskConductorArgs = z.output<typeof AskConductorInput>;
export type SubmitPlanArgs = z.output<typeof SubmitPlanInput>;
export type AnswerSubagentArgs = z.output<typeof AnswerSubagentInput>;
export type ReviewSubagentPlanArgs = z.output<typeof ReviewSubagentPlanInput>;

/**
 * What answers each tool. `askConductor` and `submitPlan` stay open until the question is answered
 * or the plan reviewed (their result is the answer, or the verdict and feedback); `call.signal`
 * fires when the call is cancelled or the session ends, and the server has then already answered
 * the CLI with an error.
 */
export interface BatonToolHandlers {
  askConductor(args: AskConductorArgs, call: ToolCallContext): Promise<ToolOutcome>;
  submitPlan(args: SubmitPlanArgs, call: ToolCallContext): Promise<ToolOutcome>;
  answerSubagent(args: AnswerSubagentArgs, call: ToolCallContext): Promise<ToolOutcome>;
  reviewSubagentPlan(args: ReviewSubagentPlanArgs, call: ToolCallContext): Promise<ToolOutcome>;
}

export interface BatonMcpServerOptions {
  readonly version?: string;
  readonly log?: McpLogger;
}

export function createBatonMcpServer(handlers: BatonToolHandlers, options: BatonMcpServerOptions = {}): McpServer {
  return createMcpServer({
    name: BatonMcpServerName,
    version: options.version ?? "0.1.0",
    ...(options.log ? { log: options.log } : {}),
    tools: [
      defineTool({
        name: "ask_conductor",
        description:
          "Ask the conductor a clarifying question about your task (requirements, constraints, approach) and wait for the answer. " +
          "Use it whenever anything is unclear, before you write code or make changes. The result is the answer.",
        input: AskConductorInput,
        handle: (args, call) => handlers.askConductor(args, call),
      }),
      defineTool({
        name: "submit_plan",
        description:
          "Submit your plan (a one-sentence goal and ordered steps) to the conductor for review and wait for the verdict. " +
          "Call it when you understand the task; make no changes until the plan is approved. " +
          "If it is rejected, revise it with the feedback and submit it again.",
        input: SubmitPlanInput,
        handle: (args, call) => handlers.submitPlan(args, call),
      }),
      defineTool({
        name: "answer_subagent",
        description: "Answer a question a subagent asked you with ask_conductor. The subagent is waiting for this answer.",
        input: AnswerSubagentInput,
        handle: (args, call) => handlers.answerSubagent(args, call),
      }),
      defineTool({
        name: "review_subagent_plan",
        description:
          "Approve or reject a plan a subagent submitted with submit_plan. The subagent waits for this review before it makes any change; " +
          "with a rejection, say in feedback what to change.",
        input: ReviewSubagentPlanInput,
        handle: (args, call) => handlers.reviewSubagentPlan(args, call),
      }),
    ],
  });
}
