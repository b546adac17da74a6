import type { DiagnosticCode } from "../../diagnostics/codes.js";

/**
 * A limit the import reached while mapping the bundled document: it stops the import, and is
 * reported at `pointer` of the OpenAPI document (the place the contract's part came from).
 */
export class ImportRefusal extends Error {
  constructor(
    readonly code: DiagnosticCode,
    readonly pointer: string,
    message: string,
  ) {
    super(message);
  }
}
