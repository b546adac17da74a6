/** What the CLI tests of OpenAPI input share: a small pet-store document and a way to run the CLI in a folder. */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

const BIN = resolve("bin/contractgen.js");

/** Runs `contractgen <args>` in `dir`, colours off. */
export function cliIn(dir: string): (...args: string[]) => { code: number | null; stdout: string; stderr: string } {
  return (...args) => {
    const r = spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", cwd: dir, env: { ...process.env, NO_COLOR: "1" } });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
}

/** An OpenAPI 3.1 document up to its /pets path item (list and create); each test adds paths and components. */
export const PETS_DOCUMENT_START = `openapi: 3.1.0
info:
  title: Pet Store
  version: 1.0.0
servers:
  - url: https://pets.example.com/v1
paths:
  /pets:
    get:
      operationId: listPets
      summary: List pets
      parameters:
        - name: limit
          in: query
          schema: { type: integer, maximum: 100 }
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                type: array
                items: { $ref: "#/components/schemas/Pet" }
    post:
      operationId: createPet
      summary: Create a pet
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/Pet" }
      responses:
        "201":
          description: created
          content:
            application/json:
              schema: { $ref: "#/components/schemas/Pet" }
        "409":
          description: exists
`;
