// A tool card's permission badge says what decided: a policy decision reads as the sandbox or the
// person's rule that made it, not as the engine's internal rule id; others keep who decided.
import { describe, expect, it } from "vitest";
import { permissionBadgeText } from "../../src/renderer/util/permissionBadge.js";

describe("permissionBadgeText", () => {
  it("names a preset's sandbox and the aspect that refused", () => {
    expect(permissionBadgeText({ state: "denied", decidedBy: "policy:preset:coder/exec" })).toEqual({ label: "denied by coder's sandbox (exec)", byPolicy: true });
    expect(permissionBadgeText({ state: "denied", decidedBy: "policy:preset:analyst/write" }).label).toBe("denied by analyst's sandbox (write)");
    expect(permissionBadgeText({ state: "allowed", decidedBy: "policy:preset:scout" }).label).toBe("allowed by scout's sandbox");
  });

  it("names the person's rule without its scope suffix", () => {
    expect(permissionBadgeText({ state: "denied", decidedBy: "policy:rule:deny Bash(rm:*) (project)" }).label).toBe("denied by your rule deny Bash(rm:*)");
    expect(permissionBadgeText({ state: "allowed", decidedBy: "policy:rule:allow Bash(echo (hi):*) (everywhere)" }).label).toBe("allowed by your rule allow Bash(echo (hi):*)");
  });

  it("says why the policy failed closed", () => {
    expect(permissionBadgeText({ state: "denied", decidedBy: "policy:unknown-agent" }).label).toContain("cannot tell which agent");
    expect(permissionBadgeText({ state: "denied", decidedBy: "policy:error" }).label).toContain("could not decide");
    expect(permissionBadgeText({ state: "denied", decidedBy: "policy:something-new" }).label).toBe("denied by Baton's policy (something-new)");
  });

  it("keeps other deciders as before", () => {
    expect(permissionBadgeText({ state: "allowed", decidedBy: "user" })).toEqual({ label: "allowed", byPolicy: false });
    expect(permissionBadgeText({ state: "denied" })).toEqual({ label: "denied", byPolicy: false });
    expect(permissionBadgeText({ state: "denied", decidedBy: "claude-code:mode" })).toEqual({ label: "denied · claude-code:mode", byPolicy: false });
    expect(permissionBadgeText({ state: "cancelled", decidedBy: "tab-closed" }).label).toBe("withdrawn · tab-closed");
  });
});
