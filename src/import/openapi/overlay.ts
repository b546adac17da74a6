// Placeholder until the overlay engine lands (same interface).
import type { SourceLocation } from "../../diagnostics/diagnostic.js";
import type { ReadProblem } from "./files.js";

export interface AppliedOverlays {
  readonly value: unknown;
  readonly problems: ReadProblem[];
  readonly files: readonly string[];
  origin(pointer: string): { overlay: number; file: string; pointer: string; locate(): SourceLocation } | undefined;
}

export function applyOverlays(document: unknown, overlayPaths: readonly string[], documentPath: string): AppliedOverlays {
  void overlayPaths;
  void documentPath;
  return { value: document, problems: [], files: [], origin: () => undefined };
}
