// Types for distFailure.mjs (plain JavaScript so `npm run dist` runs without a build step).

export declare const RELEASE_WORKFLOW: string;

export type DistFailure = { readonly kind: "network" | "mac-elsewhere" | "other"; readonly quoted?: string };

export declare function recogniseDistFailure(run: { readonly exitCode: number; readonly output: string }): DistFailure | undefined;
export declare function describeDistFailure(failure: DistFailure, context: { readonly log: string }): string;
