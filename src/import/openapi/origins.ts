/**
 * Where each part of an imported contract came from: contract pointer → the pointer in the OpenAPI
 * document (or in an overlay) it was made from. Recorded at the roots the import builds (an operation,
 * a type, an input field, an output, an error entry, an `x-contract` key); anything below a recorded
 * root is found by appending the rest of its path, since schemas are converted keyword for keyword.
 */

/** Where a contract node came from: a pointer in the document, or in one of its overlays (by index). */
export interface Origin {
  readonly pointer: string;
  /** Which overlay wrote it (its index in the order applied); absent: the OpenAPI document itself. */
  readonly overlay?: number;
}

export class Origins {
  private readonly roots = new Map<string, Origin>();

  /** `contractPointer` and everything below it came from `sourcePointer` and what lies below it. */
  set(contractPointer: string, sourcePointer: string, overlay?: number): void {
    this.roots.set(contractPointer, overlay === undefined ? { pointer: sourcePointer } : { pointer: sourcePointer, overlay });
  }

  has(contractPointer: string): boolean {
    return this.roots.has(contractPointer);
  }

  /** The origin of a contract pointer: its nearest recorded ancestor's, with the rest of the path appended. */
  resolve(contractPointer: string): Origin {
    for (let p = contractPointer; ; ) {
      const root = this.roots.get(p);
      if (root !== undefined) {
        const rest = contractPointer.slice(p.length);
        return rest === "" ? root : { ...root, pointer: `${root.pointer}${rest}` };
      }
      if (p === "") return { pointer: "" };
      p = p.slice(0, Math.max(0, p.lastIndexOf("/")));
    }
  }

}
