// Sidechain files that are not subagents (issue 21). The CLI runs some side requests as forked
// agents and keeps their transcripts beside the real subagents': compaction (`agent-acompact-*`),
// prompt suggestions (`agent-aprompt_suggestion-*`), `/btw` side questions
// (`agent-aside_question-*`: a copy of the conversation plus the side answer) and, in 2.0.x,
// `Warmup` requests at the project root (first user line "Warmup"). No Agent call started them:
// they are never counted, indexed or linked as subagents. A `/subtask` fork (meta `isFork`) is
// named the same way (`a<name>-<hex>`) but is a subagent, one with no call (forkCards.ts).

/** The forked-agent labels of side requests, as the agent id starts (`a` + label). */
const SideLabels = ["acompact", "aprompt_suggestion-", "aside_question-"] as const;

export function isSideConversation(agentId: string): boolean {
  return SideLabels.some((label) => agentId.startsWith(label));
}

/** A `/btw` side question's file (sideQuestions.ts shows its answer as a side note). */
export function isSideQuestion(agentId: string): boolean {
  return agentId.startsWith("aside_question-");
}

/** The 2.0.x warm-up request: its first user line is just "Warmup". */
export function isWarmupPrompt(prompt: string | undefined): boolean {
  return prompt !== undefined && prompt.trim() === "Warmup";
}
