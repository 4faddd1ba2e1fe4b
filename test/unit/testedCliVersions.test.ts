import { describe, expect, it } from "vitest";
import { compareSemver, describeVerdict, parseSemver, TestedCliVersions, testedVerdict } from "../../src/shared/testedCliVersions.js";

const cmp = (a: string, b: string) => Math.sign(compareSemver(parseSemver(a)!, parseSemver(b)!));

describe("tested CLI versions", () => {
  it("compares versions by number, not as text", () => {
    expect(cmp("2.1.332", "2.1.197")).toBe(1);
    expect(cmp("2.1.99", "2.1.197")).toBe(-1);
    expect(cmp("2.10.0", "2.9.9")).toBe(1);
    expect(cmp("2.1.197", "2.1.197")).toBe(0);
    expect(cmp("2.1.332-beta.2", "2.1.332")).toBe(-1);
    expect(cmp("2.1.332-beta.10", "2.1.332-beta.2")).toBe(1);
    expect(parseSemver("not a version")).toBeUndefined();
  });

  it("places a version against the ones Baton is tested with", () => {
    expect(TestedCliVersions).toEqual(["2.1.197", "2.1.332"]);
    expect(testedVerdict("2.1.197")).toBe("tested");
    expect(testedVerdict("2.1.332")).toBe("tested");
    expect(testedVerdict("2.1.200")).toBe("between");
    expect(testedVerdict("2.1.99")).toBe("older");
    expect(testedVerdict("2.1.197-rc.1")).toBe("older");
    expect(testedVerdict("3.0.0")).toBe("newer");
    expect(testedVerdict("banana")).toBe("unknown");
  });

  it("says it in one plain sentence", () => {
    expect(describeVerdict("2.0.1")).toBe("claude 2.0.1 is older than any version Baton is tested with (2.1.197–2.1.332): things may look wrong.");
    expect(describeVerdict("2.1.400")).toBe("claude 2.1.400 is newer than any version Baton is tested with (2.1.197–2.1.332): things may look wrong.");
    expect(describeVerdict("2.1.332")).toBe("claude 2.1.332 is a version Baton is tested with (2.1.197, 2.1.332).");
  });
});
