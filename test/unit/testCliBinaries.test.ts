// The test plumbing for two CLI versions: BATON_TEST_CLI picks the binary, and each binary is the
// version it is named for (a wrong alias install would silently test the other one).
import { describe, expect, it } from "vitest";
import { claudeVersion } from "../../src/main/cli/claudeVersion.js";
import { TestedCliVersions } from "../../src/shared/testedCliVersions.js";
import { claudeBinaryPath, TestCliBinaries, testCliVersion } from "../support/cliEnv.js";

describe("test CLI binaries", () => {
  it("defaults to 2.1.332 and switches with BATON_TEST_CLI; a typo is an error, not the default", () => {
    expect(testCliVersion({})).toBe("2.1.332");
    expect(testCliVersion({ BATON_TEST_CLI: "2.1.197" })).toBe("2.1.197");
    expect(() => testCliVersion({ BATON_TEST_CLI: "2.1.19" })).toThrow(/BATON_TEST_CLI=2.1.19: not one of/);
    expect(claudeBinaryPath("2.1.197")).toMatch(/node_modules[/\\]claude-code-2\.1\.197[/\\]bin[/\\]claude\.exe$/);
    expect(claudeBinaryPath("2.1.332")).toMatch(/node_modules[/\\]@anthropic-ai[/\\]claude-code[/\\]bin[/\\]claude\.exe$/);
  });

  it("has a binary for every version Baton says it is tested with, each reporting that version", async () => {
    expect(Object.keys(TestCliBinaries).sort()).toEqual([...TestedCliVersions].sort());
    for (const version of TestedCliVersions) {
      expect(await claudeVersion(claudeBinaryPath(version), 30_000)).toMatchObject({ ok: true, version });
    }
  });
});
