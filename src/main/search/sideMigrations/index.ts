// The side file's own schema steps (its user_version counts these, not the index's).
import type { Migration } from "../../platform/sqlite/migration.js";
import { s001SideText } from "./s001SideText.js";

/** In version order; the last one's version is the side schema this Baton writes. */
export const SIDE_MIGRATIONS: readonly Migration[] = [s001SideText];

export const SIDE_LATEST_VERSION = SIDE_MIGRATIONS[SIDE_MIGRATIONS.length - 1]?.version ?? 0;
