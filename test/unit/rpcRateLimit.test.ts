// Web mode's per-connection limit on `newSession`: a burst of five, then one every two seconds,
// answered `rate_limited` past it; other calls and other connections are not affected. The clock
// is the test's, so nothing waits.
import { afterEach, describe, expect, it } from "vitest";
import type { WsServerMessage } from "../../src/shared/api.js";
import { BatonService } from "../../src/main/core/batonService.js";
import { SessionManager } from "../../src/main/core/sessionManager.js";
import { createRpcConnection } from "../../src/main/transport/web/rpcConnection.js";

const managers: SessionManager[] = [];
afterEach(async () => {
  for (const m of managers.splice(0)) await m.shutdown();
});

function connection(service: BatonService, clock: { now: number }) {
  const results = new Map<number, unknown>();
  const rpc = createRpcConnection(service, (m: WsServerMessage) => {
    if (m.type === "result") results.set(m.id, m.result);
  }, { now: () => clock.now });
  let nextId = 1;
  /** Sends one call; resolves to its result. */
  const call = async (method: string, args: readonly unknown[]): Promise<unknown> => {
    const id = nextId++;
    rpc.handle(JSON.stringify({ type: "call", id, method, args }));
    await expect.poll(() => results.has(id)).toBe(true);
    return results.get(id);
  };
  return { call, close: () => rpc.close() };
}

function service(): BatonService {
  // A folder that does not exist: a call that gets through fails at the start, without a process.
  const manager = new SessionManager({ claudePath: "/nonexistent/claude" });
  managers.push(manager);
  return new BatonService(manager);
}

const newSession = ["newSession", [{ cwd: "/nonexistent/home/user/code/x" }]] as const;
const reachedManager = { ok: false, error: { code: "bad_working_directory" } };
const limited = { ok: false, error: { code: "rate_limited" } };

describe("the newSession rate limit of a web connection", () => {
  it("lets five through at once, refuses the sixth with a clear error, and lets one more through every two seconds", async () => {
    const clock = { now: 1_000_000 };
    const { call } = connection(service(), clock);
    for (let i = 0; i < 5; i++) expect(await call(...newSession)).toMatchObject(reachedManager);
    const refused = await call(...newSession);
    expect(refused).toMatchObject(limited);
    expect((refused as { error: { message: string } }).error.message).toMatch(/Too many new sessions .* try again in 2 s/);

    clock.now += 1999;
    expect(await call(...newSession)).toMatchObject(limited);
    clock.now += 1;
    expect(await call(...newSession)).toMatchObject(reachedManager);
    expect(await call(...newSession)).toMatchObject(limited);

    // A long pause refills the burst, never more than it.
    clock.now += 60_000;
    for (let i = 0; i < 5; i++) expect(await call(...newSession)).toMatchObject(reachedManager);
    expect(await call(...newSession)).toMatchObject(limited);
  });

  it("does not slow other calls, nor other connections", async () => {
    const clock = { now: 5_000 };
    const shared = service();
    const first = connection(shared, clock);
    for (let i = 0; i < 5; i++) await first.call(...newSession);
    expect(await first.call(...newSession)).toMatchObject(limited);
    expect(await first.call("listTabs", [])).toEqual({ ok: true, value: [] });
    const second = connection(shared, clock);
    expect(await second.call(...newSession)).toMatchObject(reachedManager);
  });
});
