// The words of a tool card's permission badge. A decision of Baton's policy reads as what decided
// it ("denied by coder's sandbox (exec)", "denied by your rule deny Bash(rm:*)"), with the message
// the model was told kept for hover and expand; other decisions say who decided (`claude-code`,
// `tab-closed`, …) after the state. Pure.
import type { PermissionState } from "../../shared/transcript.js";

const StateWords: Record<PermissionState["state"], string> = {
  asked: "asked",
  allowed: "allowed",
  denied: "denied",
  cancelled: "withdrawn",
};

export interface BadgeText {
  readonly label: string;
  /** The policy's decision: its message is shown on hover and expand rather than inline. */
  readonly byPolicy: boolean;
}

const PolicyPrefix = "policy:";
/** `rule:deny Bash(rm:*) (project)`, as decidePolicy.ts writes a person's rule. */
const PersonRule = /^rule:(allow|ask|deny) (.+) \((session|project|everywhere)\)$/;
/** `preset:coder/exec`, `preset:coder` (its sandbox allowed the call). */
const PresetRule = /^preset:([^/]+)(?:\/(.+))?$/;

export function permissionBadgeText(state: Pick<PermissionState, "state" | "decidedBy">): BadgeText {
  const verb = StateWords[state.state];
  const by = state.decidedBy;
  if (by === undefined || by === "user") return { label: verb, byPolicy: false };
  if (!by.startsWith(PolicyPrefix)) return { label: `${verb} · ${by}`, byPolicy: false };
  return { label: `${verb} ${policyCause(by.slice(PolicyPrefix.length))}`, byPolicy: true };
}

function policyCause(rule: string): string {
  const person = PersonRule.exec(rule);
  if (person !== null) return `by your rule ${person[1]} ${person[2]}`;
  const preset = PresetRule.exec(rule);
  if (preset !== null) return `by ${preset[1]}'s sandbox${preset[2] !== undefined ? ` (${preset[2]})` : ""}`;
  if (rule === "unknown-agent") return "by Baton's policy: it cannot tell which agent asked";
  if (rule === "error") return "by Baton's policy: it could not decide";
  return `by Baton's policy (${rule})`;
}
