// Audit v5: what held each decision (issue 31). A preset agent's Bash that the policy let through
// ran in the operating system's sandbox, or, where the person chose "policy check only", with the
// policy engine's reading of the line as its only protection; the trail says which, so a later
// reader knows what a past "allow" was worth. Earlier rows and every other call: null (the policy
// alone decided; there was no OS sandbox before this version).
import type { Migration } from "../../platform/sqlite/migration.js";

export const a005Protection: Migration = {
  version: 5,
  name: "protection",
  up(db) {
    db.exec(`
      ALTER TABLE audit_policy_decisions ADD COLUMN protection TEXT
        CHECK (protection IS NULL OR protection IN ('os-sandbox', 'policy-only'));
    `);
  },
};
