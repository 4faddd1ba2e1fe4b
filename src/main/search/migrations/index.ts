import type { Migration } from "../../platform/sqlite/migration.js";
import { m001Catalogue } from "./m001Catalogue.js";
import { m002FullText } from "./m002FullText.js";
import { m003FtsTuning } from "./m003FtsTuning.js";
import { m004Contentless } from "./m004Contentless.js";
import { m005RowPlaces } from "./m005RowPlaces.js";
import { m006SessionsByProject } from "./m006SessionsByProject.js";

export type { Migration } from "../../platform/sqlite/migration.js";

/** In version order; the last one's version is the schema this Baton writes. */
export const MIGRATIONS: readonly Migration[] = [m001Catalogue, m002FullText, m003FtsTuning, m004Contentless, m005RowPlaces, m006SessionsByProject];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
