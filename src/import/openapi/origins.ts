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
  private readonly aliases = new Map<string, string>();

  /** `contractPointer` and everything below it came from `sourcePointer` and what lies below it. */
  set(contractPointer: string, sourcePointer: string, overlay?: number): void {
    this.roots.set(contractPointer, overlay === undefined ? { pointer: sourcePointer } : { pointer: sourcePointer, overlay });
  }

  has(contractPointer: string): boolean {
    return this.roots.has(contractPointer);
  }

  /**
   * In the document, what a path-appended origin would find at `sourcePointer` (and below) was
   * written at `actualPointer` instead: a schema's `x-contract` key (`…/description` is at
   * `…/x-contract/description`), since schemas are located by appending their path.
   */
  alias(sourcePointer: string, actualPointer: string): void {
    this.aliases.set(sourcePointer, actualPointer);
  }

  /** The origin of a contract pointer: its nearest recorded ancestor's, with the rest of the path appended. */
  resolve(contractPointer: string): Origin {
    for (let p = contractPointer; ; ) {
      const root = this.roots.get(p);
      if (root !== undefined) {
        const rest = contractPointer.slice(p.length);
        const found = rest === "" ? root : { ...root, pointer: `${root.pointer}${rest}` };
        return this.aliases.size === 0 || found.overlay !== undefined ? found : { ...found, pointer: this.unalias(found.pointer) };
      }
      if (p === "") return { pointer: "" };
      p = p.slice(0, Math.max(0, p.lastIndexOf("/")));
    }
  }

  private unalias(pointer: string): string {
    for (let p = pointer; p !== ""; p = p.slice(0, Math.max(0, p.lastIndexOf("/")))) {
      const actual = this.aliases.get(p);
      if (actual !== undefined) return `${actual}${pointer.slice(p.length)}`;
    }
    return pointer;
  }

}
