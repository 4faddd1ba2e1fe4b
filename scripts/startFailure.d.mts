// Types for startFailure.mjs (plain JavaScript so `npm start` runs without a build step; the tests
// import it from TypeScript).

export declare const DOWNLOADER_NODE: string;
export declare const WEB_COMMAND: string;

type Env = Readonly<Record<string, string | undefined>>;

export type StartFailureKind =
  | "download"
  | "node-version"
  | "download-other"
  | "missing-library"
  | "no-display"
  | "launch-other";

export interface StartFailure {
  readonly kind: StartFailureKind;
  /** The first line of the error the step printed (stack frames dropped). */
  readonly quoted?: string;
  /** For a download: the running Node is below what Electron's downloader asks for. */
  readonly nodeTooOld?: boolean;
  /** For a missing library: its file name as the loader said it. */
  readonly library?: string;
}

export declare function olderThan(version: string, minimum: string): boolean;
export declare function displayMissing(platform: string, env: Env): boolean;
export declare function recogniseStartFailure(step: {
  readonly step: "download" | "launch";
  readonly exitCode: number;
  readonly stderr: string;
  readonly nodeVersion: string;
  readonly platform: string;
  readonly env: Env;
  readonly preflight?: boolean;
}): StartFailure | undefined;
export declare function describeStartFailure(
  failure: StartFailure,
  how: { readonly nodeVersion: string; readonly offer: "ask" | "print" },
): string;
export declare function acceptsOffer(answer: string): boolean;
