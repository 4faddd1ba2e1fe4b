// Types for electronNativePaths.mjs (plain JavaScript so `node scripts/electronNative.mjs` runs
// without a build step; the Electron main and the tests import it from TypeScript).

export declare const BINARY_NAME: string;
export declare const ELECTRON_HEADERS_URL: string;

export interface ElectronNativePaths {
  readonly dir: string;
  readonly binary: string;
  readonly stamp: string;
}

export interface NativeStamp {
  readonly electron: string;
  readonly arch: string;
  readonly betterSqlite3: string;
}

type Env = Readonly<Record<string, string | undefined>>;

export declare function electronNativePaths(electronVersion: string, arch: string, root: string): ElectronNativePaths;
export declare function electronBindingPath(versions: Env, arch: string, root: string): string | undefined;
export declare function packagedBindingPath(resourcesPath: string): string;
export declare function storeBindingPath(versions: Env, arch: string, appPath: string, packagedResources: string | undefined): string | undefined;
export declare function targetArch(env: Env, processArch: string): string;
export declare function expectedStamp(electronVersion: string, arch: string, betterSqlite3Version: string): NativeStamp;
export declare function parseStamp(text: string | undefined): NativeStamp | undefined;
export declare function needsBuild(state: {
  readonly binaryExists: boolean;
  readonly stamp: NativeStamp | undefined;
  readonly expected: NativeStamp;
}): boolean;
export declare function prebuildInstallArgs(electronVersion: string, arch: string): string[];
export declare function nodeGypArgs(electronVersion: string, arch: string, devdir: string): string[];
export declare function childEnv(env: Env): Record<string, string>;
export declare function nodeGypCandidates(env: Env, execPath: string, platform: string): string[];
export declare function failureMessage(
  electronVersion: string,
  arch: string,
  attempts: readonly { readonly how: string; readonly error: string }[],
): string;
