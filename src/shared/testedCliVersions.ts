// The Claude Code CLI versions Baton's tests run against (vitest.config.ts projects "cli-2.1.332"
// and "cli-2.1.197"), and how another version compares with them. Pure: `baton doctor` and the app
// use it to say plainly when a person's CLI is one Baton was never tested with.

/** Oldest first. Keep in step with package.json's devDependencies and test/support/cliEnv.ts. */
export const TestedCliVersions = ["2.1.197", "2.1.332"] as const;

export type TestedVerdict = "tested" | "between" | "older" | "newer" | "unknown";

interface Semver {
  readonly core: readonly [number, number, number];
  readonly prerelease: string | undefined;
}

/** `1.2.3`, `1.2.3-beta.1`, `v1.2.3`; build metadata (`+…`) is ignored. */
export function parseSemver(text: string): Semver | undefined {
  const match = /^v?(\d{1,9})\.(\d{1,9})\.(\d{1,9})(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  if (!match) return undefined;
  return { core: [Number(match[1]), Number(match[2]), Number(match[3])], prerelease: match[4] };
}

/** Negative, zero or positive as a is older, equal or newer than b (semver precedence). */
export function compareSemver(a: Semver, b: Semver): number {
  for (let i = 0; i < 3; i++) {
    const d = a.core[i]! - b.core[i]!;
    if (d !== 0) return d;
  }
  // A prerelease comes before its release.
  if (a.prerelease === b.prerelease) return 0;
  if (a.prerelease === undefined) return 1;
  if (b.prerelease === undefined) return -1;
  return comparePrerelease(a.prerelease, b.prerelease);
}

function comparePrerelease(a: string, b: string): number {
  const pa = a.split(".");
  const pb = b.split(".");
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x) ? Number(x) : undefined;
    const ny = /^\d+$/.test(y) ? Number(y) : undefined;
    if (nx !== undefined && ny !== undefined) {
      if (nx !== ny) return nx - ny;
    } else if (nx !== undefined) return -1;
    else if (ny !== undefined) return 1;
    else if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** Where a CLI version stands against the tested ones. */
export function testedVerdict(version: string, tested: readonly string[] = TestedCliVersions): TestedVerdict {
  const v = parseSemver(version);
  const list = tested.map(parseSemver).filter((t): t is Semver => t !== undefined);
  if (!v || list.length === 0) return "unknown";
  list.sort(compareSemver);
  if (list.some((t) => compareSemver(v, t) === 0)) return "tested";
  if (compareSemver(v, list[0]!) < 0) return "older";
  if (compareSemver(v, list[list.length - 1]!) > 0) return "newer";
  return "between";
}

/** One plain sentence for `baton doctor`. */
export function describeVerdict(version: string, tested: readonly string[] = TestedCliVersions): string {
  const range = tested.length > 1 ? `${tested[0]}–${tested[tested.length - 1]}` : (tested[0] ?? "none");
  switch (testedVerdict(version, tested)) {
    case "tested":
      return `claude ${version} is a version Baton is tested with (${tested.join(", ")}).`;
    case "between":
      return `claude ${version} is between the versions Baton is tested with (${range}) but not one of them: most things should look right.`;
    case "older":
      return `claude ${version} is older than any version Baton is tested with (${range}): things may look wrong.`;
    case "newer":
      return `claude ${version} is newer than any version Baton is tested with (${range}): things may look wrong.`;
    case "unknown":
      return `claude reported "${version}", which is not a version number Baton can compare with the ones it is tested with (${range}).`;
  }
}
