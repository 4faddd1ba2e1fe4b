import type Database from "better-sqlite3";

/** One schema step. `up` runs inside the runner's IMMEDIATE transaction, then user_version = version. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  up(db: Database.Database): void;
}
