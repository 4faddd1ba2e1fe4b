// settings.json's `conductorAnswerSeconds` (issue 24): how long the conductor has to answer a
// subagent before the person is asked. A usable number is taken; anything else is named and ignored.

import { mkdtempSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readConductorAnswerSeconds } from "../../src/main/platform/settingsFile.js";
import { tempDirs } from "../support/tempDirs.js";

const dir = tempDirs("baton-conductor-", "all")();

function settingsWith(value: unknown): string {
  const file = path.join(mkdtempSync(path.join(dir, "settings-")), "settings.json");
  writeFileSync(file, JSON.stringify({ conductorAnswerSeconds: value }));
  return file;
}

describe("the conductorAnswerSeconds setting", () => {
  it("reads seconds in range and names the problem of any other value", () => {
    expect(readConductorAnswerSeconds(settingsWith(45))).toEqual({ seconds: 45 });
    expect(readConductorAnswerSeconds(settingsWith(7.5))).toEqual({ seconds: 7.5 });
    expect(readConductorAnswerSeconds(path.join(dir, "missing.json"))).toEqual({});
    for (const bad of [0, 4, 3601, "60", null, true, Number.NaN]) {
      const read = readConductorAnswerSeconds(settingsWith(bad));
      expect(read.seconds).toBeUndefined();
      expect(read.problem).toMatch(/"conductorAnswerSeconds" must be a number of seconds from 5 to 3600; it was ignored/);
    }
  });
});
