// showWindow (issue 35): a clicked notification brings the desktop window forward from the main
// side; in web mode there is no window to move, and the call does nothing.
import { describe, expect, it } from "vitest";
import { BatonService } from "../../src/main/core/batonService.js";
import { SessionManager } from "../../src/main/core/sessionManager.js";

describe("BatonService.showWindow", () => {
  it("asks the desktop shell to bring the window forward", async () => {
    let shown = 0;
    const service = new BatonService(new SessionManager({ claudePath: "/nonexistent/claude" }), { showWindow: () => void shown++ });
    expect(await service.showWindow()).toEqual({ ok: true, value: undefined });
    expect(shown).toBe(1);
  });

  it("does nothing, successfully, without one (web mode)", async () => {
    const service = new BatonService(new SessionManager({ claudePath: "/nonexistent/claude" }));
    expect(await service.showWindow()).toEqual({ ok: true, value: undefined });
  });
});
