/**
 * The incidents fixture on a platform whose reassignments stick (CONTRACT_FAULT=sticky-owner): once an
 * incident changed owner, later reassignments are silently dropped (an SQLite trigger ignores the
 * update) while the call still answers 200. Nothing seeded in the host breaks reversibility, so this
 * proves the generated reversibility check can fail.
 */
import { platformFixture } from "../../examples/shared/contract-fixture.js";
import { fixture as reference } from "../../examples/incidents/contract-fixture.js";
import { INCIDENTS_SPEC, startIncidentsServer } from "../../examples/incidents/server.js";

const STICKY_OWNER = `
  CREATE TABLE reassigned (id TEXT PRIMARY KEY);
  CREATE TRIGGER remember_reassignment AFTER UPDATE OF owner ON incidents WHEN NEW.owner <> OLD.owner
  BEGIN INSERT OR IGNORE INTO reassigned (id) VALUES (NEW.id); END;
  CREATE TRIGGER owner_sticks BEFORE UPDATE OF owner ON incidents WHEN OLD.id IN (SELECT id FROM reassigned)
  BEGIN SELECT RAISE(IGNORE); END;`;

const fault = process.env.CONTRACT_FAULT ?? "";
if (fault !== "sticky-owner") throw new Error(`unknown CONTRACT_FAULT ${fault}`);

export const fixture = platformFixture({
  spec: INCIDENTS_SPEC,
  async start(options) {
    const platform = await startIncidentsServer(options);
    platform.db.exec(STICKY_OWNER);
    return platform;
  },
  // observe() reads these only: the trigger's own table stays out of the snapshot.
  tables: ["teams", "incidents"],
  samples: (operation, variant) => reference.sampleInput(operation, variant),
});
