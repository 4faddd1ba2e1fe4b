// The plan's limits through the real CLI (issue 37): a subscription session's responses carry the
// `anthropic-ratelimit-unified-*` headers, the CLI reports them as `rate_limit_event`, and the
// session's transcript carries the windows. A response without the headers keeps the windows last
// seen; an API-key session reports nothing. 2.1.197 reports the deciding window's status and reset
// only, no utilization (docs/protocol-notes.md).
import { afterEach, describe, expect, it } from "vitest";
import { modelOf } from "../../src/main/hub/index.js";
import type { ClaudeClient } from "../../src/main/cli/claudeClient.js";
import { openSession, type Session } from "../support/scenarios/harness.js";
import { text } from "../support/scenarios/types.js";
import { planHeaders, SubscriptionEnv } from "../support/planHeaders.js";

const now = Math.floor(Date.now() / 1000);
const reset5h = now + 3600;
const reset7d = now + 3 * 86400;

const resets = { fiveHour: reset5h, sevenDay: reset7d };

const script = {
  main: [
    { blocks: [text("First answer.")], headers: planHeaders(0.82, 0.41, resets) },
    { blocks: [text("Second answer.")], headers: planHeaders(0.97, 0.43, resets) },
    { blocks: [text("Third answer, no headers.")] },
  ],
};

let session: Session | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

async function subscriptionClient(s: Session): Promise<ClaudeClient> {
  const client = s.newClient({ env: { ...s.env.env, ...SubscriptionEnv } });
  await client.start();
  return client;
}

describe("the plan's limits from a subscription session (real CLI)", () => {
  it("each response's headers move the session's plan limits; one without them keeps the windows", async () => {
    session = await openSession(script, { cwdName: "plan-limits" });
    await subscriptionClient(session);
    const limits = async (prompt: string) => {
      await session!.turn(prompt);
      return modelOf(session!.log.events).transcript().planLimits;
    };
    const first = await limits("one");
    const second = await limits("two");
    const third = await limits("three");
    if (session.env.cliVersion === "2.1.197") {
      // The deciding window's status and reset, no utilization; a report only when it differs from
      // the last (the second response's said the same as the first's).
      expect(session.log.of("rate_limit")).toHaveLength(2);
      expect(first).toMatchObject({ status: "allowed", rateLimitType: "five_hour", resetsAt: reset5h });
      expect(first?.fiveHour).toBeUndefined();
      // The third response had no headers: its report says only "allowed", and the window stays named.
      expect(session.log.of("rate_limit").at(-1)?.limits).toEqual({ status: "allowed", isUsingOverage: false });
      expect(third).toMatchObject({ rateLimitType: "five_hour", resetsAt: reset5h });
      return;
    }
    expect(session.log.of("rate_limit").length).toBeGreaterThanOrEqual(3);
    expect(first).toMatchObject({ status: "allowed", fiveHour: { utilization: 0.82, resetsAt: reset5h }, sevenDay: { utilization: 0.41, resetsAt: reset7d } });
    expect(second).toMatchObject({ status: "allowed", fiveHour: { utilization: 0.97, resetsAt: reset5h }, sevenDay: { utilization: 0.43, resetsAt: reset7d } });
    // The third response had no headers: its report names no window, and the last ones stay.
    const bare = session.log.of("rate_limit").at(-1)?.limits;
    expect(bare?.fiveHour).toBeUndefined();
    expect(third).toMatchObject({ fiveHour: { utilization: 0.97 }, sevenDay: { utilization: 0.43 } });
  });

  it("an API-key session reports no plan limits, whatever the headers say", async () => {
    session = await openSession(script, { cwdName: "plan-limits-key" });
    await session.client.start();
    await session.turn("one");
    expect(session.log.of("rate_limit")).toEqual([]);
    expect(modelOf(session.log.events).transcript().planLimits).toBeUndefined();
  });
});
