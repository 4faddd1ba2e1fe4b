// The audit file's own schema steps (its user_version counts these, not the index's).
import type { Migration } from "../../platform/sqlite/migration.js";
import { a001Audit } from "./a001Audit.js";
import { a002PolicyDecisions } from "./a002PolicyDecisions.js";
import { a003Orchestration } from "./a003Orchestration.js";
import { a004ConductorOnly } from "./a004ConductorOnly.js";
import { a005Protection } from "./a005Protection.js";
import { a006Terminal } from "./a006Terminal.js";
import { a007Forks } from "./a007Forks.js";
import { a008Rewinds } from "./a008Rewinds.js";

/** In version order; the last one's version is the audit schema this Baton writes. */
export const AUDIT_MIGRATIONS: readonly Migration[] = [a001Audit, a002PolicyDecisions, a003Orchestration, a004ConductorOnly, a005Protection, a006Terminal, a007Forks, a008Rewinds];

export const AUDIT_LATEST_VERSION = AUDIT_MIGRATIONS[AUDIT_MIGRATIONS.length - 1]?.version ?? 0;
