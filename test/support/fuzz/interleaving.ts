// Orders in which the CLI may write a recorded run's stdout lines: agents run side by side, so the
// lines of different agents may come in another order, while each agent's own lines keep theirs.
// A line belongs to an agent's lane (its parent_tool_use_id; task events and permission requests by
// the call and agent they name) or to the conductor's. What the protocol fixes, and is kept:
// * a lane's lines in their order;
// * nothing of a lane before the line holding its Agent call's tool_use;
// * nothing of a lane before the line of its parent's lane that came before it (a subagent's line
//   is not written before what its caller had already written);
// * a foreground agent's lines before the next line of its parent's lane (its caller waits for it);
//   a lane's lines after its Agent call's result (a background agent) may fall later, past the
//   conductor's lines, as they do when it runs on after the turn.

type Line = Readonly<Record<string, unknown>>;

const Main = "";

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function contentOf(line: Line): readonly Record<string, unknown>[] {
  const message = line["message"];
  const content = message !== null && typeof message === "object" ? (message as Record<string, unknown>)["content"] : undefined;
  return Array.isArray(content) ? content.filter((b): b is Record<string, unknown> => b !== null && typeof b === "object") : [];
}

/** The lane of each line: the Agent call id it belongs to, or "" for the conductor. */
export function lanesOf(lines: readonly Line[]): string[] {
  const agentCall = new Map<string, string>(); // agent (task) id → its Agent call
  const requestLane = new Map<string, string>();
  for (const line of lines) {
    const taskId = str(line["task_id"]);
    const toolUseId = str(line["tool_use_id"]);
    if (line["subtype"] === "task_started" && taskId !== undefined && toolUseId !== undefined && !agentCall.has(taskId)) agentCall.set(taskId, toolUseId);
    const agentId = str(line["agent_id"]);
    const parent = str(line["parent_tool_use_id"]);
    if (agentId !== undefined && parent !== undefined && !agentCall.has(agentId)) agentCall.set(agentId, parent);
  }
  return lines.map((line) => {
    const parent = str(line["parent_tool_use_id"]);
    if (parent !== undefined) return parent;
    if (line["type"] === "system" && str(line["subtype"])?.startsWith("task_") === true) return str(line["tool_use_id"]) ?? Main;
    if (line["type"] === "control_request") {
      const request = line["request"] as Record<string, unknown> | undefined;
      const agentId = str(request?.["agent_id"]);
      const lane = agentId === undefined ? Main : (agentCall.get(agentId) ?? Main);
      const id = str(line["request_id"]);
      if (id !== undefined) requestLane.set(id, lane);
      return lane;
    }
    if (line["type"] === "control_cancel_request") return requestLane.get(str(line["request_id"]) ?? "") ?? Main;
    return Main;
  });
}

/** For each line, the lines that must come before it (indexes of earlier lines). */
export function mustFollow(lines: readonly Line[]): number[][] {
  const lanes = lanesOf(lines);
  const useAt = new Map<string, number>();
  const resultAt = new Map<string, number>();
  lines.forEach((line, i) => {
    for (const block of contentOf(line)) {
      const id = str(block["id"]);
      if (id !== undefined && str(block["type"])?.endsWith("tool_use") === true && !useAt.has(id)) useAt.set(id, i);
      const used = str(block["tool_use_id"]);
      if (used !== undefined && block["type"] === "tool_result" && !resultAt.has(used)) resultAt.set(used, i);
    }
  });
  const parentLane = (lane: string): string => {
    const at = useAt.get(lane);
    return at === undefined ? Main : (lanes[at] as string);
  };
  const before: number[][] = lines.map(() => []);
  const lastIn = new Map<string, number>();
  lines.forEach((_, i) => {
    const lane = lanes[i] as string;
    const previous = lastIn.get(lane);
    if (previous !== undefined) before[i]!.push(previous);
    if (lane !== Main) {
      const use = useAt.get(lane);
      if (use !== undefined && use < i) before[i]!.push(use);
      const callerLast = lastIn.get(parentLane(lane));
      if (callerLast !== undefined) before[i]!.push(callerLast);
    }
    lastIn.set(lane, i);
  });
  // A foreground stretch (before its Agent call's result) comes before its caller's next line.
  lines.forEach((_, i) => {
    const lane = lanes[i] as string;
    if (lane === Main || i > (resultAt.get(lane) ?? Infinity)) return;
    const caller = parentLane(lane);
    const next = lanes.findIndex((l, j) => j > i && l === caller);
    if (next !== -1) before[next]!.push(i);
  });
  return before;
}

/** The lines in an order the constraints allow, chosen by `picks` (any list of numbers; [0] keeps the recorded order). */
export function interleave<T>(items: readonly T[], before: readonly number[][], picks: readonly number[]): T[] {
  const waiting = before.map((b) => new Set(b).size);
  const after: number[][] = items.map(() => []);
  before.forEach((b, i) => new Set(b).forEach((j) => after[j]!.push(i)));
  const ready = items.map((_, i) => i).filter((i) => waiting[i] === 0);
  const out: T[] = [];
  for (let k = 0; ready.length > 0; k++) {
    ready.sort((a, b) => a - b);
    const [i] = ready.splice((picks[k % Math.max(picks.length, 1)] ?? 0) % ready.length, 1) as [number];
    out.push(items[i] as T);
    for (const j of after[i]!) if (--waiting[j]! === 0) ready.push(j);
  }
  if (out.length !== items.length) throw new Error("interleave: the constraints have a cycle");
  return out;
}
